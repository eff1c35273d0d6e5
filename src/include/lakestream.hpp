// lakestream: embedded streaming lakehouse engine. Include this one header.
#pragma once

#include "lakestream/connection.hpp"
#include "lakestream/database.hpp"
#include "lakestream/result.hpp"

// lakestream: embedded streaming lakehouse engine. Include this one header.
// It and everything it includes use only the standard library (docs/api.md).
#pragma once

#include "lakestream/column_view.hpp"
#include "lakestream/columnar_table.hpp"
#include "lakestream/connection.hpp"
#include "lakestream/database.hpp"
#include "lakestream/result.hpp"
#include "lakestream/value.hpp"

#include "common/option_value.hpp"

#include "common/exception.hpp"
#include "common/string_util.hpp"

namespace lakestream {

bool BooleanOption(const std::string& owner, const std::string& option, const Value& value,
                   const std::string& alternative) {
  if (!value.IsNull()) {
    switch (value.type().id()) {
      case TypeId::BOOLEAN: return value.GetBoolean();
      case TypeId::INTEGER:
      case TypeId::BIGINT: {
        int64_t n = value.type().id() == TypeId::INTEGER ? value.GetInteger() : value.GetBigint();
        if (n == 0 || n == 1) return n == 1;
        break;
      }
      case TypeId::VARCHAR: {
        std::string s = StringUtil::Lower(value.GetString());
        if (s == "true" || s == "1" || s == "on") return true;
        if (s == "false" || s == "0" || s == "off") return false;
        break;
      }
      default: break;
    }
  }
  throw BinderError(owner + " option " + option + " must be true or false" + alternative + ", got " + value.ToSQLString());
}

}  // namespace lakestream

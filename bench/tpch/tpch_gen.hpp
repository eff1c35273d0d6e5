// A TPC-H data generator written from the specification (v3, clause 4.2):
// the eight tables at a scale factor SF, with the specification's
// cardinalities (SF x 10,000 suppliers, 200,000 parts, 800,000 partsupps,
// 150,000 customers, 1,500,000 orders, 1 to 7 lineitems per order), key
// formulas (sparse order keys, the partsupp supplier formula), value ranges,
// price formulas (P_RETAILPRICE, L_EXTENDEDPRICE, O_TOTALPRICE), dates and
// text. It is not dbgen: the same seed always gives the same files, but not
// dbgen's rows, so answers are checked against DuckDB on these files, never
// against the specification's published answer sets.
//
// Tables are written as '|'-separated text (no trailing '|', no quoting: no
// generated value holds '|' or '"'), one file per table, <dir>/<table>.tbl.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "tpch_text.hpp"

namespace tpch {

constexpr uint64_t kSeed = 19920101;

// Days since 1970-01-01 of a civil date (Howard Hinnant's days_from_civil).
inline int64_t DaysFromCivil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

inline std::string DateText(int64_t days) {
  days += 719468;
  const int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  const auto doe = static_cast<unsigned>(days - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  const unsigned d = doy - (153 * mp + 2) / 5 + 1;
  const unsigned m = mp < 10 ? mp + 3 : mp - 9;
  const int64_t y = static_cast<int64_t>(yoe) + era * 400 + (m <= 2);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04lld-%02u-%02u", static_cast<long long>(y), m, d);
  return buf;
}

// Cents as a decimal with two places ("-12.05").
inline std::string Money(int64_t cents) {
  char buf[32];
  const int64_t a = cents < 0 ? -cents : cents;
  std::snprintf(buf, sizeof buf, "%s%lld.%02lld", cents < 0 ? "-" : "", static_cast<long long>(a / 100),
                static_cast<long long>(a % 100));
  return buf;
}

inline std::string Padded(const char* prefix, int64_t key, int width) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s%0*lld", prefix, width, static_cast<long long>(key));
  return buf;
}

class Generator {
 public:
  Generator(double sf, std::string dir) : sf_(sf), dir_(std::move(dir)) {
    if (sf <= 0) throw std::runtime_error("scale factor must be positive");
    suppliers_ = Count(10000);
    parts_ = Count(200000);
    customers_ = Count(150000);
    orders_ = Count(1500000);
    BuildTextPool();
  }

  void All() {
    Region();
    Nation();
    Supplier();
    Part();
    PartSupp();
    Customer();
    OrdersAndLineitem();
  }

  // Clause 4.2.3: P_RETAILPRICE in cents.
  static int64_t RetailPriceCents(int64_t partkey) {
    return 90000 + ((partkey / 10) % 20001) + 100 * (partkey % 1000);
  }
  // Clause 4.2.3: the i-th (0..3) supplier of a part.
  int64_t PartSupplier(int64_t partkey, int64_t i) const {
    const int64_t s = suppliers_;
    return (partkey + (i * ((s / 4) + (partkey - 1) / s))) % s + 1;
  }

 private:
  int64_t Count(int64_t per_sf) const {
    const int64_t n = std::llround(static_cast<double>(per_sf) * sf_);
    return n < 1 ? 1 : n;
  }

  struct File {
    File(const std::string& path) : f(std::fopen(path.c_str(), "w")), name(path) {
      if (!f) throw std::runtime_error("cannot write " + path);
    }
    ~File() {
      if (f) std::fclose(f);
    }
    File(const File&) = delete;
    File& operator=(const File&) = delete;
    void Row(const std::vector<std::string>& fields) {
      line.clear();
      for (size_t i = 0; i < fields.size(); i++) {
        if (i) line += '|';
        line += fields[i];
      }
      line += '\n';
      if (std::fwrite(line.data(), 1, line.size(), f) != line.size()) throw std::runtime_error("write failed: " + name);
    }
    FILE* f;
    std::string name;
    std::string line;
  };
  File Open(const char* table) const { return File(dir_ + "/" + table + ".tbl"); }

  // Clause 4.2.2.10: the text pool (the specification's is 300 MB; 8 MB of
  // sentences is ample for comments of at most 198 characters).
  void BuildTextPool() {
    TextGrammar grammar;
    Random rng(kSeed ^ 0x7e47);
    while (pool_.size() < (8u << 20)) pool_ += grammar.Sentence(rng);
  }
  // A random substring of the pool whose length is uniform in [lo, hi].
  std::string Text(Random& rng, int lo, int hi) {
    const auto len = static_cast<size_t>(rng.Uniform(lo, hi));
    const auto start = static_cast<size_t>(rng.Uniform(0, static_cast<int64_t>(pool_.size() - len - 1)));
    return pool_.substr(start, len);
  }
  // Clause 4.2.2.7: a v-string of random length in [lo, hi].
  static std::string VString(Random& rng, int lo, int hi) {
    static const char kChars[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ,. ";
    std::string s(static_cast<size_t>(rng.Uniform(lo, hi)), ' ');
    for (char& c : s) c = kChars[rng.Uniform(0, sizeof kChars - 2)];
    return s;
  }
  // Clause 4.2.2.9: a phone number whose country code is nationkey + 10.
  static std::string Phone(Random& rng, int64_t nationkey) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%02lld-%03lld-%03lld-%04lld", static_cast<long long>(nationkey) + 10,
                  static_cast<long long>(rng.Uniform(100, 999)), static_cast<long long>(rng.Uniform(100, 999)),
                  static_cast<long long>(rng.Uniform(1000, 9999)));
    return buf;
  }
  template <class T>
  static const T& Pick(Random& rng, const std::vector<T>& list) {
    return list[static_cast<size_t>(rng.Uniform(0, static_cast<int64_t>(list.size()) - 1))];
  }

  void Region() {
    File out = Open("region");
    Random rng(kSeed + 1);
    for (size_t i = 0; i < kRegions.size(); i++)
      out.Row({std::to_string(i), kRegions[i], Text(rng, 31, 115)});
  }
  void Nation() {
    File out = Open("nation");
    Random rng(kSeed + 2);
    for (size_t i = 0; i < kNations.size(); i++)
      out.Row({std::to_string(i), kNations[i].first, std::to_string(kNations[i].second), Text(rng, 31, 114)});
  }
  void Supplier() {
    File out = Open("supplier");
    Random rng(kSeed + 3);
    // Clause 4.2.3: SF x 5 suppliers have "Customer ...Complaints" in their
    // comment and SF x 5 "Customer ...Recommends" (Q16 excludes the former).
    const int64_t special = std::max<int64_t>(1, Count(5));
    std::vector<int> mark(static_cast<size_t>(suppliers_ + 1), 0);
    for (int kind = 1; kind <= 2; kind++)
      for (int64_t n = 0; n < special;) {
        auto key = static_cast<size_t>(rng.Uniform(1, suppliers_));
        if (mark[key] == 0) mark[key] = kind, n++;
      }
    for (int64_t key = 1; key <= suppliers_; key++) {
      const int64_t nation = rng.Uniform(0, 24);
      std::string address = VString(rng, 10, 40);
      std::string phone = Phone(rng, nation);
      const int64_t acctbal = rng.Uniform(-99999, 999999);
      std::string comment = Text(rng, 25, 100);
      if (const int kind = mark[static_cast<size_t>(key)]; kind != 0) {
        const std::string tail = kind == 1 ? "Complaints" : "Recommends";
        // "Customer" at a random place, the tail some words later, keeping the length.
        const size_t need = 8 + tail.size() + 1;
        if (comment.size() < need + 1) comment.resize(need + 1, ' ');
        const auto at = static_cast<size_t>(rng.Uniform(0, static_cast<int64_t>(comment.size() - need - 1)));
        const auto gap = static_cast<size_t>(rng.Uniform(0, static_cast<int64_t>(comment.size() - need - at)));
        comment.replace(at, 8, "Customer");
        comment.replace(at + 8 + gap, tail.size(), tail);
      }
      out.Row({std::to_string(key), Padded("Supplier#", key, 9), address, std::to_string(nation), phone,
               Money(acctbal), comment});
    }
  }
  void Part() {
    File out = Open("part");
    Random rng(kSeed + 4);
    const auto& colors = Colors();
    for (int64_t key = 1; key <= parts_; key++) {
      // Five distinct colour words.
      size_t picked[5];
      std::string name;
      for (int i = 0; i < 5; i++) {
        size_t c;
        do {
          c = static_cast<size_t>(rng.Uniform(0, static_cast<int64_t>(colors.size()) - 1));
        } while (std::find(picked, picked + i, c) != picked + i);
        picked[i] = c;
        if (i) name += ' ';
        name += colors[c];
      }
      const int64_t m = rng.Uniform(1, 5);
      const int64_t n = rng.Uniform(1, 5);
      std::string type = Pick(rng, kTypeSyllable1) + " " + Pick(rng, kTypeSyllable2) + " " + Pick(rng, kTypeSyllable3);
      const int64_t size = rng.Uniform(1, 50);
      std::string container = Pick(rng, kContainerSyllable1) + " " + Pick(rng, kContainerSyllable2);
      out.Row({std::to_string(key), name, "Manufacturer#" + std::to_string(m),
               "Brand#" + std::to_string(m) + std::to_string(n), type, std::to_string(size), container,
               Money(RetailPriceCents(key)), Text(rng, 5, 22)});
    }
  }
  void PartSupp() {
    File out = Open("partsupp");
    Random rng(kSeed + 5);
    for (int64_t key = 1; key <= parts_; key++)
      for (int64_t i = 0; i < 4; i++)
        out.Row({std::to_string(key), std::to_string(PartSupplier(key, i)), std::to_string(rng.Uniform(1, 9999)),
                 Money(rng.Uniform(100, 100000)), Text(rng, 49, 198)});
  }
  void Customer() {
    File out = Open("customer");
    Random rng(kSeed + 6);
    for (int64_t key = 1; key <= customers_; key++) {
      const int64_t nation = rng.Uniform(0, 24);
      std::string address = VString(rng, 10, 40);
      std::string phone = Phone(rng, nation);
      const int64_t acctbal = rng.Uniform(-99999, 999999);
      const std::string& segment = Pick(rng, kSegments);
      out.Row({std::to_string(key), Padded("Customer#", key, 9), address, std::to_string(nation), phone,
               Money(acctbal), segment, Text(rng, 29, 116)});
    }
  }
  void OrdersAndLineitem() {
    File orders = Open("orders");
    File lineitem = Open("lineitem");
    Random rng(kSeed + 7);
    const int64_t start = DaysFromCivil(1992, 1, 1);
    const int64_t end = DaysFromCivil(1998, 12, 31);
    const int64_t current = DaysFromCivil(1995, 6, 17);
    const int64_t clerks = std::max<int64_t>(1, Count(1000));
    std::vector<std::string> row;
    for (int64_t i = 0; i < orders_; i++) {
      // Clause 4.2.3: only the first 8 of every 32 keys are used.
      const int64_t orderkey = (i / 8) * 32 + (i % 8) + 1;
      int64_t custkey;
      do {  // a third of the customers (custkey divisible by 3) place no orders
        custkey = rng.Uniform(1, customers_);
      } while (custkey % 3 == 0 && customers_ >= 3);
      const int64_t orderdate = rng.Uniform(start, end - 151);
      const std::string& priority = Pick(rng, kPriorities);
      const int64_t clerk = rng.Uniform(1, clerks);
      std::string comment = Text(rng, 19, 78);
      const int64_t lines = rng.Uniform(1, 7);
      int64_t total = 0;  // in 1/1,000,000 of a cent: price x (1 + tax) x (1 - discount), rounded at the end
      int filled = 0;
      for (int64_t line = 1; line <= lines; line++) {
        const int64_t partkey = rng.Uniform(1, parts_);
        const int64_t suppkey = PartSupplier(partkey, rng.Uniform(0, 3));
        const int64_t quantity = rng.Uniform(1, 50);
        const int64_t discount = rng.Uniform(0, 10);  // hundredths
        const int64_t tax = rng.Uniform(0, 8);        // hundredths
        const int64_t price = quantity * RetailPriceCents(partkey);
        const int64_t shipdate = orderdate + rng.Uniform(1, 121);
        const int64_t commitdate = orderdate + rng.Uniform(30, 90);
        const int64_t receiptdate = shipdate + rng.Uniform(1, 30);
        const char* returnflag = receiptdate <= current ? (rng.Uniform(0, 1) ? "R" : "A") : "N";
        const bool open = shipdate > current;
        filled += open ? 1 : 0;
        total += price * (100 + tax) * (100 - discount);
        const std::string& instruct = Pick(rng, kInstructions);
        const std::string& mode = Pick(rng, kShipModes);
        lineitem.Row({std::to_string(orderkey), std::to_string(partkey), std::to_string(suppkey),
                      std::to_string(line), std::to_string(quantity), Money(price), Money(discount),
                      Money(tax), returnflag, open ? "O" : "F", DateText(shipdate), DateText(commitdate),
                      DateText(receiptdate), instruct, mode, Text(rng, 10, 43)});
      }
      const char* status = filled == lines ? "O" : (filled == 0 ? "F" : "P");
      orders.Row({std::to_string(orderkey), std::to_string(custkey), status, Money((total + 5000) / 10000),
                  DateText(orderdate), priority, Padded("Clerk#", clerk, 9), "0", comment});
    }
  }

  double sf_;
  std::string dir_;
  int64_t suppliers_ = 0, parts_ = 0, customers_ = 0, orders_ = 0;
  std::string pool_;
};

// The column lists of the eight tables (clause 1.4), in file order, as the
// typed schema the .tbl files are read with.
inline const std::vector<std::pair<std::string, std::string>>& Schemas() {
  static const std::vector<std::pair<std::string, std::string>> kSchemas = {
      {"region", "r_regionkey BIGINT, r_name STRING, r_comment STRING"},
      {"nation", "n_nationkey BIGINT, n_name STRING, n_regionkey BIGINT, n_comment STRING"},
      {"supplier",
       "s_suppkey BIGINT, s_name STRING, s_address STRING, s_nationkey BIGINT, s_phone STRING, "
       "s_acctbal DECIMAL(15,2), s_comment STRING"},
      {"part",
       "p_partkey BIGINT, p_name STRING, p_mfgr STRING, p_brand STRING, p_type STRING, p_size INT, "
       "p_container STRING, p_retailprice DECIMAL(15,2), p_comment STRING"},
      {"partsupp",
       "ps_partkey BIGINT, ps_suppkey BIGINT, ps_availqty INT, ps_supplycost DECIMAL(15,2), ps_comment STRING"},
      {"customer",
       "c_custkey BIGINT, c_name STRING, c_address STRING, c_nationkey BIGINT, c_phone STRING, "
       "c_acctbal DECIMAL(15,2), c_mktsegment STRING, c_comment STRING"},
      {"orders",
       "o_orderkey BIGINT, o_custkey BIGINT, o_orderstatus STRING, o_totalprice DECIMAL(15,2), o_orderdate DATE, "
       "o_orderpriority STRING, o_clerk STRING, o_shippriority INT, o_comment STRING"},
      {"lineitem",
       "l_orderkey BIGINT, l_partkey BIGINT, l_suppkey BIGINT, l_linenumber INT, l_quantity DECIMAL(15,2), "
       "l_extendedprice DECIMAL(15,2), l_discount DECIMAL(15,2), l_tax DECIMAL(15,2), l_returnflag STRING, "
       "l_linestatus STRING, l_shipdate DATE, l_commitdate DATE, l_receiptdate DATE, l_shipinstruct STRING, "
       "l_shipmode STRING, l_comment STRING"},
  };
  return kSchemas;
}

}  // namespace tpch

// The value pools of the TPC-H specification (v3, clause 4.2.2 and 4.2.3):
// the word lists that p_name, p_type, p_container, c_mktsegment,
// o_orderpriority, l_shipinstruct and l_shipmode are drawn from, the fixed
// NATION and REGION rows, and the pseudo-text grammar whose sentences fill
// the comment columns. Written from the specification's text; the weights
// follow its distributions (a word of weight 50 is drawn 50 times as often as
// one of weight 1), which is what makes the standard queries' LIKE patterns
// ('%special%requests%', '%Customer%Complaints%') select the fractions the
// specification intends.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tpch {

// splitmix64: small, fast and deterministic on every platform, unlike
// std::uniform_int_distribution whose output the standard leaves open.
class Random {
 public:
  explicit Random(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  // Uniform in [lo, hi] (both inclusive), as the specification's "random value".
  int64_t Uniform(int64_t lo, int64_t hi) { return lo + static_cast<int64_t>(Next() % static_cast<uint64_t>(hi - lo + 1)); }

 private:
  uint64_t state_;
};

struct Weighted {
  const char* word;
  int weight;
};

class WeightedList {
 public:
  WeightedList(std::initializer_list<Weighted> items) : items_(items) {
    for (const auto& item : items_) total_ += item.weight;
  }
  const char* Pick(Random& rng) const {
    int64_t r = rng.Uniform(0, total_ - 1);
    for (const auto& item : items_) {
      if (r < item.weight) return item.word;
      r -= item.weight;
    }
    return items_.back().word;
  }

 private:
  std::vector<Weighted> items_;
  int total_ = 0;
};

// Clause 4.2.2.13: the 92 words of P_NAME.
inline const std::vector<std::string>& Colors() {
  static const std::vector<std::string> kColors = {
      "almond",    "antique",   "aquamarine", "azure",     "beige",     "bisque",    "black",     "blanched",
      "blue",      "blush",     "brown",      "burlywood", "burnished", "chartreuse", "chiffon",  "chocolate",
      "coral",     "cornflower", "cornsilk",  "cream",     "cyan",      "dark",      "deep",      "dim",
      "dodger",    "drab",      "firebrick",  "floral",    "forest",    "frosted",   "gainsboro", "ghost",
      "goldenrod", "green",     "grey",       "honeydew",  "hot",       "indian",    "ivory",     "khaki",
      "lace",      "lavender",  "lawn",       "lemon",     "light",     "lime",      "linen",     "magenta",
      "maroon",    "medium",    "metallic",   "midnight",  "mint",      "misty",     "moccasin",  "navajo",
      "navy",      "olive",     "orange",     "orchid",    "pale",      "papaya",    "peach",     "peru",
      "pink",      "plum",      "powder",     "puff",      "purple",    "red",       "rose",      "rosy",
      "royal",     "saddle",    "salmon",     "sandy",     "seashell",  "sienna",    "sky",       "slate",
      "smoke",     "snow",      "spring",     "steel",     "tan",       "thistle",   "tomato",    "turquoise",
      "violet",    "wheat",     "white",      "yellow"};
  return kColors;
}

inline const std::vector<std::string> kTypeSyllable1 = {"STANDARD", "SMALL", "MEDIUM", "LARGE", "ECONOMY", "PROMO"};
inline const std::vector<std::string> kTypeSyllable2 = {"ANODIZED", "BURNISHED", "PLATED", "POLISHED", "BRUSHED"};
inline const std::vector<std::string> kTypeSyllable3 = {"TIN", "NICKEL", "BRASS", "STEEL", "COPPER"};
inline const std::vector<std::string> kContainerSyllable1 = {"SM", "LG", "MED", "JUMBO", "WRAP"};
inline const std::vector<std::string> kContainerSyllable2 = {"CASE", "BOX", "BAG", "JAR", "PKG", "PACK", "CAN", "DRUM"};
inline const std::vector<std::string> kSegments = {"AUTOMOBILE", "BUILDING", "FURNITURE", "MACHINERY", "HOUSEHOLD"};
inline const std::vector<std::string> kPriorities = {"1-URGENT", "2-HIGH", "3-MEDIUM", "4-NOT SPECIFIED", "5-LOW"};
inline const std::vector<std::string> kInstructions = {"DELIVER IN PERSON", "COLLECT COD", "NONE", "TAKE BACK RETURN"};
inline const std::vector<std::string> kShipModes = {"REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"};

// Clause 4.2.3: the 25 nations (name, region key) and the 5 regions.
inline const std::vector<std::pair<std::string, int>> kNations = {
    {"ALGERIA", 0},  {"ARGENTINA", 1}, {"BRAZIL", 1},       {"CANADA", 1},         {"EGYPT", 4},
    {"ETHIOPIA", 0}, {"FRANCE", 3},    {"GERMANY", 3},      {"INDIA", 2},          {"INDONESIA", 2},
    {"IRAN", 4},     {"IRAQ", 4},      {"JAPAN", 2},        {"JORDAN", 4},         {"KENYA", 0},
    {"MOROCCO", 0},  {"MOZAMBIQUE", 0}, {"PERU", 1},        {"CHINA", 2},          {"ROMANIA", 3},
    {"SAUDI ARABIA", 4}, {"VIETNAM", 2}, {"RUSSIA", 3},     {"UNITED KINGDOM", 3}, {"UNITED STATES", 1}};
inline const std::vector<std::string> kRegions = {"AFRICA", "AMERICA", "ASIA", "EUROPE", "MIDDLE EAST"};

// Clause 4.2.2.10: the pseudo-text grammar. A text pool is a long run of
// sentences; each comment is a random substring of it.
class TextGrammar {
 public:
  std::string Sentence(Random& rng) const {
    std::string out;
    switch (rng.Uniform(0, 12)) {  // weights 3, 3, 3, 1, 1 of the five sentence forms
      case 0: case 1: case 2:
        NounPhrase(rng, out), VerbPhrase(rng, out);
        break;
      case 3: case 4: case 5:
        NounPhrase(rng, out), VerbPhrase(rng, out), PrepositionalPhrase(rng, out);
        break;
      case 6: case 7: case 8:
        NounPhrase(rng, out), VerbPhrase(rng, out), NounPhrase(rng, out);
        break;
      case 9: case 10:
        NounPhrase(rng, out), PrepositionalPhrase(rng, out), VerbPhrase(rng, out), NounPhrase(rng, out);
        break;
      default:
        NounPhrase(rng, out), PrepositionalPhrase(rng, out), VerbPhrase(rng, out), PrepositionalPhrase(rng, out);
        break;
    }
    out.pop_back();  // the space after the last word: the terminator follows it directly
    out += terminators_.Pick(rng);
    out += ' ';
    return out;
  }

 private:
  static void Word(std::string& out, const char* word) { out += word, out += ' '; }
  void NounPhrase(Random& rng, std::string& out) const {
    switch (rng.Uniform(0, 8)) {  // weights: noun 1, adj noun 2, adj, adj noun 1, adv adj noun 5 (of 9)
      case 0:
        break;
      case 1: case 2:
        Word(out, adjectives_.Pick(rng));
        break;
      case 3:
        out += adjectives_.Pick(rng), out += ", ";
        Word(out, adjectives_.Pick(rng));
        break;
      default:
        Word(out, adverbs_.Pick(rng)), Word(out, adjectives_.Pick(rng));
        break;
    }
    Word(out, nouns_.Pick(rng));
  }
  void VerbPhrase(Random& rng, std::string& out) const {
    switch (rng.Uniform(0, 71)) {  // weights: verb 30, aux verb 1, verb adv 40, aux verb adv 1
      case 0:
        Word(out, auxiliaries_.Pick(rng)), Word(out, verbs_.Pick(rng));
        break;
      case 1:
        Word(out, auxiliaries_.Pick(rng)), Word(out, verbs_.Pick(rng)), Word(out, adverbs_.Pick(rng));
        break;
      default:
        Word(out, verbs_.Pick(rng));
        if (rng.Uniform(0, 69) < 40) Word(out, adverbs_.Pick(rng));
        break;
    }
  }
  void PrepositionalPhrase(Random& rng, std::string& out) const {
    Word(out, prepositions_.Pick(rng)), Word(out, "the");
    NounPhrase(rng, out);
  }

  WeightedList nouns_{{"packages", 40}, {"requests", 40}, {"accounts", 40}, {"deposits", 40}, {"foxes", 20},
                      {"ideas", 20}, {"theodolites", 20}, {"pinto beans", 20}, {"instructions", 20},
                      {"dependencies", 10}, {"excuses", 10}, {"platelets", 10}, {"asymptotes", 10}, {"courts", 5},
                      {"dolphins", 5}, {"multipliers", 1}, {"sauternes", 1}, {"warthogs", 1}, {"frets", 1},
                      {"dinos", 1}, {"attainments", 1}, {"somas", 1}, {"Tiresias", 1}, {"patterns", 1},
                      {"forges", 1}, {"braids", 1}, {"hockey players", 1}, {"frays", 1}, {"warhorses", 1},
                      {"dugouts", 1}, {"notornis", 1}, {"epitaphs", 1}, {"pearls", 1}, {"tithes", 1},
                      {"waters", 1}, {"orbits", 1}, {"gifts", 1}, {"sheaves", 1}, {"depths", 1},
                      {"sentiments", 1}, {"decoys", 1}, {"realms", 1}, {"pains", 1}, {"grouches", 1},
                      {"escapades", 1}};
  WeightedList verbs_{{"sleep", 20}, {"wake", 20}, {"are", 20}, {"cajole", 20}, {"haggle", 20}, {"nag", 10},
                      {"use", 10}, {"boost", 10}, {"affix", 5}, {"detect", 5}, {"integrate", 5}, {"maintain", 1},
                      {"nod", 1}, {"was", 1}, {"lose", 1}, {"sublate", 1}, {"solve", 1}, {"thrash", 1},
                      {"promise", 1}, {"engage", 1}, {"hinder", 1}, {"print", 1}, {"x-ray", 1}, {"breach", 1},
                      {"eat", 1}, {"grow", 1}, {"impress", 1}, {"mold", 1}, {"poach", 1}, {"serve", 1},
                      {"run", 1}, {"dazzle", 1}, {"snooze", 1}, {"doze", 1}, {"unwind", 1}, {"kindle", 1},
                      {"play", 1}, {"hang", 1}, {"believe", 1}, {"doubt", 1}};
  WeightedList adjectives_{{"special", 20}, {"pending", 20}, {"unusual", 20}, {"express", 20}, {"furious", 1},
                           {"sly", 1}, {"careful", 1}, {"blithe", 1}, {"quick", 1}, {"fluffy", 1}, {"slow", 1},
                           {"quiet", 1}, {"ruthless", 1}, {"thin", 1}, {"close", 1}, {"dogged", 1}, {"daring", 1},
                           {"brave", 1}, {"stealthy", 1}, {"permanent", 1}, {"enticing", 1}, {"idle", 1},
                           {"busy", 1}, {"regular", 50}, {"final", 40}, {"ironic", 40}, {"even", 30}, {"bold", 20},
                           {"silent", 10}};
  WeightedList adverbs_{{"sometimes", 1}, {"always", 1}, {"never", 1}, {"furiously", 50}, {"slyly", 50},
                        {"carefully", 50}, {"blithely", 40}, {"quickly", 30}, {"fluffily", 20}, {"slowly", 1},
                        {"quietly", 1}, {"ruthlessly", 1}, {"thinly", 1}, {"closely", 1}, {"doggedly", 1},
                        {"daringly", 1}, {"bravely", 1}, {"stealthily", 1}, {"permanently", 1}, {"enticingly", 1},
                        {"idly", 1}, {"busily", 1}, {"regularly", 1}, {"finally", 1}, {"ironically", 1},
                        {"evenly", 1}, {"boldly", 1}, {"silently", 1}};
  WeightedList prepositions_{{"about", 50}, {"above", 50}, {"according to", 50}, {"across", 50}, {"after", 50},
                             {"against", 40}, {"along", 40}, {"alongside of", 30}, {"among", 30}, {"around", 20},
                             {"at", 10}, {"atop", 1}, {"before", 1}, {"behind", 1}, {"beneath", 1}, {"beside", 1},
                             {"besides", 1}, {"between", 1}, {"beyond", 1}, {"by", 1}, {"despite", 1},
                             {"during", 1}, {"except", 1}, {"for", 1}, {"from", 1}, {"in place of", 1},
                             {"inside", 1}, {"instead of", 1}, {"into", 1}, {"near", 1}, {"of", 1}, {"on", 1},
                             {"outside", 1}, {"over", 1}, {"past", 1}, {"since", 1}, {"through", 1},
                             {"throughout", 1}, {"to", 1}, {"toward", 1}, {"under", 1}, {"until", 1}, {"up", 1},
                             {"upon", 1}, {"without", 1}, {"with", 1}, {"within", 1}};
  WeightedList auxiliaries_{{"do", 1}, {"may", 1}, {"might", 1}, {"shall", 1}, {"will", 1}, {"would", 1},
                            {"can", 1}, {"could", 1}, {"should", 1}, {"ought to", 1}, {"must", 1},
                            {"will have to", 1}, {"shall have to", 1}, {"could have to", 1},
                            {"should have to", 1}, {"must have to", 1}, {"need to", 1}, {"try to", 1}};
  WeightedList terminators_{{".", 50}, {";", 1}, {":", 1}, {"?", 1}, {"!", 1}, {"--", 1}};
};

}  // namespace tpch

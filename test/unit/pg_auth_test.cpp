// SCRAM-SHA-256 for `lakestream serve` (tools/cli/pg_auth.cpp): RFC 7677's
// own exchange gives its server signature; a wrong proof, a replayed or
// foreign nonce, channel-binding requests and unknown users all fail; the
// password file's verifier text round-trips and malformed ones are refused.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdio>
#include <fstream>

#include "pg_auth.hpp"

namespace lakestream::pg {
namespace {

// RFC 7677, section 3: user "user", password "pencil".
const char* kClientFirst = "n,,n=user,r=rOprNGfwEbeRWgbNEkqO";
const char* kServerNonce = "%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0";
const char* kServerFirst = "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096";
const char* kClientFinal =
    "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=";
const char* kServerFinal = "v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=";

ScramVerifier PencilVerifier() {
  // The salt of the RFC's exchange, W22ZaJ0SNY7soEsUEjb6gQ== decoded.
  auto parsed = ParseScramVerifier("SCRAM-SHA-256$4096:W22ZaJ0SNY7soEsUEjb6gQ==$" + std::string(44 - 1, 'A') + "=:" +
                                   std::string(43, 'A') + "=");
  EXPECT_TRUE(parsed.has_value());
  return MakeScramVerifier("pencil", parsed->salt, 4096);
}

TEST(PgScram, Rfc7677ExchangeGivesItsServerSignature) {
  ScramVerifier verifier = PencilVerifier();
  ScramExchange exchange(&verifier, "user", kServerNonce);
  EXPECT_EQ(exchange.ServerFirst(kClientFirst), std::optional<std::string>(kServerFirst));
  EXPECT_EQ(exchange.ServerFinal(kClientFinal), std::optional<std::string>(kServerFinal));
}

TEST(PgScram, WrongProofsNoncesAndBindingsFail) {
  ScramVerifier verifier = PencilVerifier();
  {
    ScramExchange exchange(&verifier, "user", kServerNonce);
    ASSERT_TRUE(exchange.ServerFirst(kClientFirst));
    std::string wrong = kClientFinal;
    wrong[wrong.size() - 5] = wrong[wrong.size() - 5] == 'A' ? 'B' : 'A';  // one bit of the proof
    EXPECT_FALSE(exchange.ServerFinal(wrong));
  }
  {
    // A fresh exchange picks a fresh nonce: the RFC's final message (a replay) fails.
    ScramExchange exchange(&verifier, "user");
    ASSERT_TRUE(exchange.ServerFirst(kClientFirst));
    EXPECT_FALSE(exchange.ServerFinal(kClientFinal));
  }
  {
    ScramExchange exchange(&verifier, "user", kServerNonce);
    EXPECT_FALSE(exchange.ServerFirst("p=tls-server-end-point,,n=user,r=abc"));  // channel binding asked
    EXPECT_FALSE(exchange.ServerFirst("n,,n=user"));                            // no nonce
    EXPECT_FALSE(exchange.ServerFinal(kClientFinal));                           // final before first
  }
  {
    // An unknown user goes through the same steps and fails at the proof, even the right one.
    ScramExchange exchange(nullptr, "user", kServerNonce);
    auto first = exchange.ServerFirst(kClientFirst);
    ASSERT_TRUE(first);
    EXPECT_NE(first->find(",i=4096"), std::string::npos);
    EXPECT_FALSE(exchange.ServerFinal(kClientFinal));
  }
}

TEST(PgScram, VerifierTextRoundTripsAndMalformedIsRefused) {
  ScramVerifier made = MakeScramVerifier("s3cret");
  auto parsed = ParseScramVerifier(FormatScramVerifier(made));
  ASSERT_TRUE(parsed);
  EXPECT_EQ(parsed->salt, made.salt);
  EXPECT_EQ(parsed->stored_key, made.stored_key);
  EXPECT_EQ(parsed->server_key, made.server_key);
  EXPECT_EQ(parsed->iterations, 4096);
  EXPECT_NE(MakeScramVerifier("s3cret").salt, made.salt);  // a fresh salt each time
  EXPECT_FALSE(ParseScramVerifier("SCRAM-SHA-256$4096:c2FsdA==$c2hvcnQ=:c2hvcnQ="));  // keys not 32 bytes
  EXPECT_FALSE(ParseScramVerifier("SCRAM-SHA-256$x:c2FsdA==$" + std::string(43, 'A') + "=:" + std::string(43, 'A') + "="));
  EXPECT_FALSE(ParseScramVerifier("md5abcdef"));
}

TEST(PgScram, PasswordFileLinesAndErrors) {
  std::string path = ::testing::TempDir() + "/pg_auth_test_passwords";
  {
    std::ofstream out(path);
    out << "# users\nalice:pass:with:colons\nbob:" << FormatScramVerifier(MakeScramVerifier("b0b")) << "\n\n";
  }
  ::chmod(path.c_str(), 0600);
  std::map<std::string, ScramVerifier> users;
  std::string error;
  ASSERT_TRUE(ReadPasswordFile(path, &users, &error)) << error;
  ASSERT_EQ(users.size(), 2u);
  // alice's password is everything after the first colon: an exchange with it succeeds only with that password.
  EXPECT_EQ(users["alice"].stored_key, MakeScramVerifier("pass:with:colons", users["alice"].salt, 4096).stored_key);
  {
    std::ofstream out(path);
    out << "carol:SCRAM-SHA-256$4096:broken\n";
  }
  users.clear();
  EXPECT_FALSE(ReadPasswordFile(path, &users, &error));
  EXPECT_NE(error.find(":1: a malformed SCRAM verifier"), std::string::npos) << error;
  std::remove(path.c_str());
}

}  // namespace
}  // namespace lakestream::pg

// redactUri / redactUris (common/uri_redaction.h): what of a URI every message,
// header and plan may show.
#include "quarry/common/uri_redaction.h"

#include <gtest/gtest.h>

namespace quarry {
namespace {

// "the user-info becomes `***` (the password, and the user name, which may be a token)"
TEST(RedactUriTest, ReplacesTheUserInfo) {
  EXPECT_EQ(redactUri("https://alice:s3cret@host.test:8443/a/b.parquet"),
            "https://***@host.test:8443/a/b.parquet");
  EXPECT_EQ(redactUri("http://token@host/x"), "http://***@host/x");
  // A password holding an unescaped '@' is still removed entirely.
  EXPECT_EQ(redactUri("http://u:p@ss@host/x"), "http://***@host/x");
}

// "the value of every query parameter": presigned URLs' names differ between clouds.
TEST(RedactUriTest, ReplacesEveryQueryValue) {
  EXPECT_EQ(
      redactUri("https://b.s3.amazonaws.com/k?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential="
                "AKIDEXAMPLE%2F2026&X-Amz-Signature=abcdef0123&X-Amz-Security-Token=FQoG"),
      "https://b.s3.amazonaws.com/k?X-Amz-Algorithm=***&X-Amz-Credential=***"
      "&X-Amz-Signature=***&X-Amz-Security-Token=***");
  EXPECT_EQ(redactUri("https://acct.blob.test/c/f?sv=2020&sig=XYZ#frag"),
            "https://acct.blob.test/c/f?sv=***&sig=***#frag");
  EXPECT_EQ(redactUri("http://h/p?secret"), "http://h/p?***");
  EXPECT_EQ(redactUri("http://h/p?a=&b=1"), "http://h/p?a=&b=***");
  EXPECT_EQ(redactUri("s3://bucket/key.parquet?versionId=abc"),
            "s3://bucket/key.parquet?versionId=***");
  // A space in the path does not end a URI given whole.
  EXPECT_EQ(redactUri("http://h/a b.parquet?sig=x"), "http://h/a b.parquet?sig=***");
}

TEST(RedactUriTest, LeavesUrisWithoutCredentialsAlone) {
  for (const char* uri :
       {"http://127.0.0.1:8080/data/x.parquet", "s3://bucket/key/with@sign.parquet",
        "https://host/path@with/at", "/local/path.parquet", "", "http://h/p?",
        "file:///data/what?.parquet", "/data/a?b=c.parquet"}) {
    EXPECT_EQ(redactUri(uri), uri);
  }
}

TEST(RedactUriTest, IsIdempotent) {
  const std::string once = redactUri("https://u:p@h/k?X-Amz-Signature=abc");
  EXPECT_EQ(once, "https://***@h/k?X-Amz-Signature=***");
  EXPECT_EQ(redactUri(once), once);
}

// URIs inside a message: each from its scheme to a space, quote or bracket,
// trailing punctuation left out.
TEST(RedactUrisTest, RedactsEveryUriOfAText) {
  EXPECT_EQ(redactUris("GET http://u:pw@h/x.parquet?sig=abc: the server answered HTTP 403"),
            "GET http://***@h/x.parquet?sig=***: the server answered HTTP 403");
  EXPECT_EQ(redactUris("FROM \"https://h/a?token=t1\", 's3://b/k?X-Amz-Signature=s2' | LIMIT 1"),
            "FROM \"https://h/a?token=***\", 's3://b/k?X-Amz-Signature=***' | LIMIT 1");
  EXPECT_EQ(redactUris("(see http://h/x?sig=abc)."), "(see http://h/x?sig=***).");
  EXPECT_EQ(redactUris("no uri: a:b@c, ://x, path?y=z"), "no uri: a:b@c, ://x, path?y=z");
}

TEST(RedactUrisTest, GivesTheRangesItReplaces) {
  const std::string text = "FROM \"http://u:pw@h/x?sig=abc\"";
  const auto secrets = uriSecrets(text);
  ASSERT_EQ(secrets.size(), 2u);
  EXPECT_EQ(text.substr(secrets[0].first, secrets[0].second - secrets[0].first), "u:pw");
  EXPECT_EQ(text.substr(secrets[1].first, secrets[1].second - secrets[1].first), "abc");
}

}  // namespace
}  // namespace quarry

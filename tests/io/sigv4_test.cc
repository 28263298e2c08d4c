#include "quarry/io/sigv4.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "quarry/common/percent_decoding.h"

namespace quarry::io {
namespace {

// AWS's Signature Version 4 test suite ("aws-sig-v4-test-suite", formerly in the AWS
// General Reference): credentials AKIDEXAMPLE / wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY,
// region us-east-1, service "service", request time 20150830T123600Z, Host
// example.amazonaws.com, no body.
constexpr std::string_view kSuiteSecret = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";
constexpr std::string_view kSuiteDate = "20150830T123600Z";
constexpr std::string_view kSuiteScope = "20150830/us-east-1/service/aws4_request";

struct SuiteCase {
  std::string method;
  std::string target;
  HttpHeaderList headers;  // besides Host and X-Amz-Date
  std::string canonicalRequest;
  std::string stringToSignHash;
  std::string signature;
  std::string signedHeaders = "host;x-amz-date";
};

void checkSuiteCase(const SuiteCase& c) {
  HttpHeaderList headers = {{"Host", "example.amazonaws.com"}};
  headers.insert(headers.end(), c.headers.begin(), c.headers.end());
  headers.emplace_back("X-Amz-Date", std::string(kSuiteDate));
  const CanonicalRequest canonical =
      canonicalRequest(c.method, c.target, headers, kEmptyPayloadSha256);
  EXPECT_EQ(canonical.text, c.canonicalRequest);
  EXPECT_EQ(canonical.signedHeaders, c.signedHeaders);
  const std::string sts = stringToSign(kSuiteDate, kSuiteScope, canonical.text);
  EXPECT_EQ(sts, "AWS4-HMAC-SHA256\n20150830T123600Z\n20150830/us-east-1/service/aws4_request\n" +
                     c.stringToSignHash);
  EXPECT_EQ(sigv4Signature(kSuiteSecret, "20150830", "us-east-1", "service", sts), c.signature);
}

TEST(SigV4Test, GetVanillaMatchesTheAwsTestSuite) {
  checkSuiteCase({"GET",
                  "/",
                  {},
                  "GET\n/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\n"
                  "host;x-amz-date\n"
                  "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                  "bb579772317eb040ac9ed261061d46c1f17a8133879d6129b6e1c25292927e63",
                  "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"});
}

TEST(SigV4Test, PostVanillaMatchesTheAwsTestSuite) {
  checkSuiteCase({"POST",
                  "/",
                  {},
                  "POST\n/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\n"
                  "host;x-amz-date\n"
                  "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                  "553f88c9e4d10fc9e109e2aeb65f030801b70c2f6468faca261d401ae622fc87",
                  "5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b"});
}

TEST(SigV4Test, QueryParametersAreSortedByName) {
  // get-vanilla-query-order-key-case: "/?Param2=value2&Param1=value1".
  checkSuiteCase({"GET",
                  "/?Param2=value2&Param1=value1",
                  {},
                  "GET\n/\nParam1=value1&Param2=value2\nhost:example.amazonaws.com\n"
                  "x-amz-date:20150830T123600Z\n\nhost;x-amz-date\n"
                  "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                  "816cd5b414d056048ba4f7c5386d6e0533120fb1fcfa93762cf0fc39e2cf19e0",
                  "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500"});
}

TEST(SigV4Test, HeaderValuesAreTrimmedAndInnerSpacesFolded) {
  // get-header-value-trim: My-Header1 " value1", My-Header2 ' "a   b   c"'.
  checkSuiteCase({"GET",
                  "/",
                  {{"My-Header1", " value1"}, {"My-Header2", " \"a   b   c\""}},
                  "GET\n/\n\nhost:example.amazonaws.com\nmy-header1:value1\n"
                  "my-header2:\"a b c\"\nx-amz-date:20150830T123600Z\n\n"
                  "host;my-header1;my-header2;x-amz-date\n"
                  "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                  "a726db9b0df21c14f559d0a978e563112acb1b9e05476f0a6a1c7d68f28605c7",
                  "acc3ed3afb60bb290fc8d2dd0098b9911fcaa05412b367055dee359757a9c736",
                  "host;my-header1;my-header2;x-amz-date"});
}

TEST(SigV4Test, UnreservedCharactersStayUnencoded) {
  checkSuiteCase({"GET",
                  "/-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
                  {},
                  "GET\n/-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz\n\n"
                  "host:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\nhost;x-amz-date\n"
                  "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                  "6a968768eefaa713e2a6b16b589a8ea192661f098f37349f4e2c0082757446f9",
                  "07ef7494c76fa4850883e2b006601f940f8a34d404d0cfa977f52a65bbf5f24f"});
}

TEST(SigV4Test, Utf8PathIsPercentEncoded) {
  // get-utf8: the path "/ሴ" (U+1234).
  checkSuiteCase({"GET",
                  "/\xE1\x88\xB4",
                  {},
                  "GET\n/%E1%88%B4\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\n"
                  "host;x-amz-date\n"
                  "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                  "2a0a97d02205e45ce2e994789806b19270cfbbb0921b278ccf58f5249ac42102",
                  "8318018e0b0f223aa2bbf98705b62bb787dc9c0e678f255a891fd03141be5d85"});
}

std::chrono::system_clock::time_point utc(int year, unsigned month, unsigned day, int hour,
                                          int minute, int second) {
  using namespace std::chrono;
  return sys_days(std::chrono::year(year) / std::chrono::month(month) / std::chrono::day(day)) +
         hours(hour) + minutes(minute) + seconds(second);
}

TEST(SigV4Test, SignRequestReproducesGetVanillaAuthorization) {
  HttpHeaderList headers;
  SigV4Options options;
  options.service = "service";
  options.payloadHash = std::string(kEmptyPayloadSha256);
  options.contentSha256Header = false;
  signRequest("GET", "https://example.amazonaws.com/", headers,
              {"AKIDEXAMPLE", std::string(kSuiteSecret), ""}, options, utc(2015, 8, 30, 12, 36, 0));
  ASSERT_EQ(headers.size(), 2u);
  EXPECT_EQ(headers[0], (std::pair<std::string, std::string>("x-amz-date", "20150830T123600Z")));
  EXPECT_EQ(headers[1].second,
            "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
            "SignedHeaders=host;x-amz-date, "
            "Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31");
}

// Amazon S3 API Reference, "Signature Calculations for the Authorization Header:
// Transferring Payload in a Single Chunk", example "GET Object": the first 10 bytes of
// test.txt in examplebucket, the empty payload hash as x-amz-content-sha256.
TEST(SigV4Test, S3GetObjectWithRangeMatchesTheS3Example) {
  HttpHeaderList headers = {{"Range", "bytes=0-9"}};
  SigV4Options options;
  options.payloadHash = std::string(kEmptyPayloadSha256);
  signRequest("GET", "https://examplebucket.s3.amazonaws.com/test.txt", headers,
              {"AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", ""}, options,
              utc(2013, 5, 24, 0, 0, 0));
  const HttpHeaderList forCanonical = {{"host", "examplebucket.s3.amazonaws.com"},
                                       {"range", "bytes=0-9"},
                                       {"x-amz-content-sha256", std::string(kEmptyPayloadSha256)},
                                       {"x-amz-date", "20130524T000000Z"}};
  const CanonicalRequest canonical =
      canonicalRequest("GET", "/test.txt", forCanonical, kEmptyPayloadSha256);
  EXPECT_EQ(
      canonical.text,
      "GET\n/test.txt\n\nhost:examplebucket.s3.amazonaws.com\nrange:bytes=0-9\n"
      "x-amz-content-sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\n"
      "x-amz-date:20130524T000000Z\n\nhost;range;x-amz-content-sha256;x-amz-date\n"
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(stringToSign("20130524T000000Z", "20130524/us-east-1/s3/aws4_request", canonical.text),
            "AWS4-HMAC-SHA256\n20130524T000000Z\n20130524/us-east-1/s3/aws4_request\n"
            "7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972");
  ASSERT_EQ(headers.back().first, "Authorization");
  EXPECT_EQ(headers.back().second,
            "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
            "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, "
            "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
}

TEST(SigV4Test, SessionTokenIsSentAndSigned) {
  HttpHeaderList headers;
  signRequest("GET", "http://127.0.0.1:9000/bucket/key", headers, {"AKID", "SECRET", "TOKEN"}, {},
              utc(2024, 1, 2, 3, 4, 5));
  bool sawToken = false;
  for (const auto& [name, value] : headers)
    sawToken = sawToken || (name == "x-amz-security-token" && value == "TOKEN");
  EXPECT_TRUE(sawToken);
  EXPECT_NE(headers.back().second.find("SignedHeaders=host;x-amz-content-sha256;x-amz-date;"
                                       "x-amz-security-token,"),
            std::string::npos);
  EXPECT_EQ(headers.back().second.find("SECRET"), std::string::npos);
}

TEST(SigV4Test, TransportHeadersAreNotSignedAndRetriesAreResigned) {
  HttpHeaderList headers = {{"User-Agent", "quarry"}, {"Range", "bytes=0-1"}};
  signRequest("GET", "http://h/b/k", headers, {"AKID", "SECRET", ""}, {}, utc(2024, 1, 2, 3, 4, 5));
  signRequest("GET", "http://h/b/k", headers, {"AKID", "SECRET", ""}, {}, utc(2024, 1, 2, 3, 4, 6));
  int authorizations = 0;
  for (const auto& [name, value] : headers) {
    if (name == "Authorization") {
      ++authorizations;
      EXPECT_NE(value.find("SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,"),
                std::string::npos);
    }
  }
  EXPECT_EQ(authorizations, 1);
}

TEST(SigV4Test, AnonymousCredentialsLeaveTheRequestUnsigned) {
  HttpHeaderList headers;
  signRequest("GET", "https://bucket.s3.amazonaws.com/key", headers, {}, {},
              std::chrono::system_clock::now());
  EXPECT_TRUE(headers.empty());
}

TEST(SigV4Test, HostDropsTheDefaultPortOnly) {
  EXPECT_EQ(hostAndTarget("http://Example.com:80/a?b=c").first, "example.com");
  EXPECT_EQ(hostAndTarget("https://example.com:443").second, "/");
  EXPECT_EQ(hostAndTarget("http://127.0.0.1:9000?x").first, "127.0.0.1:9000");
  EXPECT_EQ(hostAndTarget("http://127.0.0.1:9000?x").second, "/?x");
}

TEST(SigV4Test, UriEncodingFollowsTheSigV4Rules) {
  EXPECT_EQ(awsUriEncode("a b/c+d=e~", true), "a%20b/c%2Bd%3De~");
  EXPECT_EQ(awsUriEncode("a b/c", false), "a%20b%2Fc");
  EXPECT_EQ(percentDecode("a%20b%2fc%zz%4"), "a b/c%zz%4");
}

}  // namespace
}  // namespace quarry::io

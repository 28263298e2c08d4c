#include "quarry/io/s3_uri.h"

#include <gtest/gtest.h>

#include "quarry/common/error.h"

namespace quarry::io {
namespace {

TEST(S3UriTest, ParsesBucketAndKey) {
  const S3Location location = parseS3Uri("s3://my-bucket/data/2024/x.parquet");
  EXPECT_EQ(location.bucket, "my-bucket");
  EXPECT_EQ(location.key, "data/2024/x.parquet");
  EXPECT_EQ(parseS3Uri("S3://b").key, "");
  EXPECT_EQ(parseS3Uri("s3://b/").key, "");
  EXPECT_TRUE(isS3Uri("S3://b/k"));
  EXPECT_FALSE(isS3Uri("http://b/k"));
}

TEST(S3UriTest, RejectsUrisWithoutBucket) {
  EXPECT_THROW(parseS3Uri("s3:///key"), InvalidArgument);
  EXPECT_THROW(parseS3Uri("s3://"), InvalidArgument);
  EXPECT_THROW(parseS3Uri("http://bucket/key"), InvalidArgument);
}

TEST(S3UriTest, AwsUsesVirtualHostedAddressingInTheRegion) {
  AwsConfig config;
  config.region = "eu-west-1";
  const S3Endpoint endpoint = s3Endpoint(config, "my-bucket");
  EXPECT_FALSE(endpoint.pathStyle);
  EXPECT_EQ(s3ObjectUrl(endpoint, {"my-bucket", "a b/c+d.parquet"}),
            "https://my-bucket.s3.eu-west-1.amazonaws.com/a%20b/c%2Bd.parquet");
}

TEST(S3UriTest, BucketsThatCannotBeHostNamesUsePathStyle) {
  AwsConfig config;
  const S3Endpoint endpoint = s3Endpoint(config, "my.dotted.bucket");
  EXPECT_TRUE(endpoint.pathStyle);
  EXPECT_EQ(s3ObjectUrl(endpoint, {"my.dotted.bucket", "k"}),
            "https://s3.us-east-1.amazonaws.com/my.dotted.bucket/k");
  config.addressingStyle = S3AddressingStyle::kPath;
  EXPECT_TRUE(s3Endpoint(config, "plain").pathStyle);
}

TEST(S3UriTest, ConfiguredEndpointUsesPathStyle) {
  AwsConfig config;
  config.endpointUrl = "http://127.0.0.1:9000";
  const S3Endpoint endpoint = s3Endpoint(config, "bucket");
  EXPECT_TRUE(endpoint.pathStyle);
  EXPECT_EQ(s3ObjectUrl(endpoint, {"bucket", "dir/ሴ ~x.parquet"}),
            "http://127.0.0.1:9000/bucket/dir/%E1%88%B4%20~x.parquet");
  config.endpointUrl = "https://minio.local/base/";
  EXPECT_EQ(s3ObjectUrl(s3Endpoint(config, "b"), {"b", "k"}), "https://minio.local/base/b/k");
  config.addressingStyle = S3AddressingStyle::kVirtual;
  EXPECT_EQ(s3ObjectUrl(s3Endpoint(config, "b"), {"b", "k"}), "https://b.minio.local/base/k");
}

TEST(S3UriTest, MalformedEndpointIsAnError) {
  AwsConfig config;
  config.endpointUrl = "127.0.0.1:9000";
  EXPECT_THROW(s3Endpoint(config, "b"), InvalidArgument);
  config.endpointUrl = "ftp://host";
  EXPECT_THROW(s3Endpoint(config, "b"), InvalidArgument);
}

TEST(S3UriTest, ListUrlEncodesPrefixAndToken) {
  AwsConfig config;
  config.endpointUrl = "http://h:1";
  EXPECT_EQ(
      s3ListUrl(s3Endpoint(config, "b"), "b", "dir/a b", "tok/+=", 2),
      "http://h:1/b/?list-type=2&continuation-token=tok%2F%2B%3D&max-keys=2&prefix=dir%2Fa%20b");
  EXPECT_EQ(s3ListUrl(s3Endpoint(config, "b"), "b", "", "", std::nullopt),
            "http://h:1/b/?list-type=2&prefix=");
}

}  // namespace
}  // namespace quarry::io

#include "quarry/io/aws_config.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

#include "quarry/common/error.h"

namespace quarry::io {
namespace {

// A fake environment with a temporary HOME holding ~/.aws/credentials and ~/.aws/config.
class AwsConfigTest : public ::testing::Test {
 protected:
  void SetUp() override {
    home_ =
        std::filesystem::temp_directory_path() / ("quarry-aws-home-" + std::to_string(::getpid()));
    std::filesystem::remove_all(home_);
    std::filesystem::create_directories(home_ / ".aws");
    env_["HOME"] = home_.string();
  }
  void TearDown() override { std::filesystem::remove_all(home_); }

  void write(const std::string& relative, const std::string& text) {
    std::ofstream(home_ / relative) << text;
  }
  AwsConfig resolve() const {
    return resolveAwsConfig([this](const std::string& name) -> std::optional<std::string> {
      const auto it = env_.find(name);
      if (it == env_.end()) return std::nullopt;
      return it->second;
    });
  }

  std::filesystem::path home_;
  std::map<std::string, std::string> env_;
};

TEST_F(AwsConfigTest, NoCredentialsAnywhereMeansAnonymousInUsEast1) {
  const AwsConfig config = resolve();
  EXPECT_TRUE(config.credentials.anonymous());
  EXPECT_EQ(config.region, "us-east-1");
  EXPECT_EQ(config.endpointUrl, "");
}

TEST_F(AwsConfigTest, AnAnonymousConfigurationNamesWhereCredentialsWereSought) {
  // Issue 26: a refused unsigned request says so and names the sources looked at.
  env_["AWS_PROFILE"] = "analytics";
  write(".aws/config", "[profile analytics]\nregion = eu-west-1\n");
  const AwsConfig config = resolve();
  ASSERT_TRUE(config.credentials.anonymous());
  const std::string note = unsignedRequestNote(config);
  for (const std::string& expected :
       {std::string("sent unsigned"), std::string("AWS_ACCESS_KEY_ID"), std::string("AWS_SECRET_ACCESS_KEY"),
        std::string("'analytics' (AWS_PROFILE)"), (home_ / ".aws/credentials").string() + " (AWS_SHARED_CREDENTIALS_FILE)",
        (home_ / ".aws/config").string() + " (AWS_CONFIG_FILE)"}) {
    EXPECT_NE(note.find(expected), std::string::npos) << expected << " in " << note;
  }

  AwsConfig signedConfig = config;
  signedConfig.credentials = {"KEY", "secret", ""};
  EXPECT_EQ(unsignedRequestNote(signedConfig), "");
  EXPECT_EQ(unsignedRequestNote(AwsConfig{}),
            "the request was sent unsigned, as no AWS credentials were found; a bucket that is not "
            "public needs credentials");
}

TEST_F(AwsConfigTest, EnvironmentCredentialsWinOverTheFiles) {
  write(".aws/credentials",
        "[default]\naws_access_key_id = FILEKEY\naws_secret_access_key = filesecret\n");
  env_["AWS_ACCESS_KEY_ID"] = "ENVKEY";
  env_["AWS_SECRET_ACCESS_KEY"] = "envsecret";
  env_["AWS_SESSION_TOKEN"] = "envtoken";
  const AwsConfig config = resolve();
  EXPECT_EQ(config.credentials.accessKeyId, "ENVKEY");
  EXPECT_EQ(config.credentials.secretAccessKey, "envsecret");
  EXPECT_EQ(config.credentials.sessionToken, "envtoken");
}

TEST_F(AwsConfigTest, DefaultProfileComesFromTheCredentialsFile) {
  write(".aws/credentials",
        "# comment\n[other]\naws_access_key_id=OTHER\naws_secret_access_key=x\n\n"
        "[default]\n  aws_access_key_id = FILEKEY  \naws_secret_access_key = file/secret+key\n"
        "aws_session_token = tok\n");
  const AwsConfig config = resolve();
  EXPECT_EQ(config.credentials.accessKeyId, "FILEKEY");
  EXPECT_EQ(config.credentials.secretAccessKey, "file/secret+key");
  EXPECT_EQ(config.credentials.sessionToken, "tok");
}

TEST_F(AwsConfigTest, ProfileSectionsOfTheConfigFileAreNamedProfileX) {
  write(".aws/credentials",
        "[dev]\naws_access_key_id = DEVKEY\naws_secret_access_key = devsecret\n");
  write(".aws/config",
        "[default]\nregion = eu-west-1\n[profile dev]\nregion = ap-south-1\n"
        "endpoint_url = http://localhost:9000/\n[dev]\nregion = wrong-section\n");
  env_["AWS_PROFILE"] = "dev";
  const AwsConfig config = resolve();
  EXPECT_EQ(config.profile, "dev");
  EXPECT_EQ(config.credentials.accessKeyId, "DEVKEY");
  EXPECT_EQ(config.region, "ap-south-1");
  EXPECT_EQ(config.endpointUrl, "http://localhost:9000");
}

TEST_F(AwsConfigTest, CredentialsMayLiveInTheConfigFile) {
  write(".aws/config",
        "[profile cfg]\naws_access_key_id = CFGKEY\naws_secret_access_key = cfgsecret\n");
  env_["AWS_PROFILE"] = "cfg";
  EXPECT_EQ(resolve().credentials.accessKeyId, "CFGKEY");
}

TEST_F(AwsConfigTest, RegionPrefersAwsRegionThenAwsDefaultRegionThenTheProfile) {
  write(".aws/config", "[default]\nregion = eu-west-1\n");
  EXPECT_EQ(resolve().region, "eu-west-1");
  env_["AWS_DEFAULT_REGION"] = "eu-central-1";
  EXPECT_EQ(resolve().region, "eu-central-1");
  env_["AWS_REGION"] = "us-west-2";
  EXPECT_EQ(resolve().region, "us-west-2");
}

TEST_F(AwsConfigTest, EndpointPrefersTheS3SpecificVariable) {
  write(".aws/config", "[default]\nendpoint_url = http://from-profile\n");
  EXPECT_EQ(resolve().endpointUrl, "http://from-profile");
  env_["AWS_ENDPOINT_URL"] = "http://global:1";
  EXPECT_EQ(resolve().endpointUrl, "http://global:1");
  env_["AWS_ENDPOINT_URL_S3"] = "http://s3-only:2";
  EXPECT_EQ(resolve().endpointUrl, "http://s3-only:2");
}

TEST_F(AwsConfigTest, ServicesSectionAndNestedS3SettingsAreRead) {
  write(".aws/config",
        "[default]\nservices = local\ns3 =\n  addressing_style = path\n"
        "[services local]\ns3 =\n  endpoint_url = http://127.0.0.1:9000\n");
  const AwsConfig config = resolve();
  EXPECT_EQ(config.endpointUrl, "http://127.0.0.1:9000");
  EXPECT_EQ(config.addressingStyle, S3AddressingStyle::kPath);
  env_["AWS_IGNORE_CONFIGURED_ENDPOINT_URLS"] = "true";
  EXPECT_EQ(resolve().endpointUrl, "");
}

TEST_F(AwsConfigTest, FileLocationsCanBeOverridden) {
  write("creds", "[default]\naws_access_key_id = ELSEWHERE\naws_secret_access_key = s\n");
  write("conf", "[default]\nregion = sa-east-1\n");
  env_["AWS_SHARED_CREDENTIALS_FILE"] = (home_ / "creds").string();
  env_["AWS_CONFIG_FILE"] = "~/conf";
  const AwsConfig config = resolve();
  EXPECT_EQ(config.credentials.accessKeyId, "ELSEWHERE");
  EXPECT_EQ(config.region, "sa-east-1");
}

TEST_F(AwsConfigTest, UnknownProfileIsAnErrorNamingIt) {
  env_["AWS_PROFILE"] = "nosuch";
  try {
    resolve();
    FAIL() << "expected InvalidArgument";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("'nosuch'"), std::string::npos) << e.what();
  }
}

TEST_F(AwsConfigTest, IncompleteCredentialsFailWithoutQuotingThem) {
  env_["AWS_SECRET_ACCESS_KEY"] = "verysecretvalue";
  try {
    resolve();
    FAIL() << "expected InvalidArgument";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("AWS_ACCESS_KEY_ID"), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find("verysecretvalue"), std::string::npos) << e.what();
  }
  env_.erase("AWS_SECRET_ACCESS_KEY");
  write(".aws/credentials", "[default]\naws_access_key_id = K\n#aws_secret_access_key = hidden\n");
  EXPECT_THROW(resolve(), InvalidArgument);
}

TEST(AwsConfigProcessEnvironmentTest, ReadsTheRealEnvironment) {
  const char* previous = std::getenv("AWS_REGION");
  const std::optional<std::string> saved =
      previous ? std::optional<std::string>(previous) : std::nullopt;
  ::setenv("AWS_REGION", "eu-north-1", 1);
  const std::string region = resolveAwsConfig().region;
  if (saved) {
    ::setenv("AWS_REGION", saved->c_str(), 1);
  } else {
    ::unsetenv("AWS_REGION");
  }
  EXPECT_EQ(region, "eu-north-1");
}

}  // namespace
}  // namespace quarry::io

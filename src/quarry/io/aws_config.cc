#include "quarry/io/aws_config.h"

#include <cstdlib>
#include <fstream>
#include <map>

#include "quarry/common/error.h"

namespace quarry::io {
namespace {

// One INI file: section name -> key -> value. A key under an indented block
// ("s3 =\n  endpoint_url = ...") is stored as "s3.endpoint_url".
using IniFile = std::map<std::string, std::map<std::string, std::string>>;

std::string trim(std::string_view text) {
  const size_t first = text.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  const size_t last = text.find_last_not_of(" \t\r");
  return std::string(text.substr(first, last - first + 1));
}

IniFile readIni(const std::string& path) {
  IniFile out;
  std::ifstream in(path);
  if (!in) return out;  // a missing file is no configuration, as for the AWS CLI
  std::string line;
  std::string section;
  std::string parentKey;
  bool inSection = false;
  while (std::getline(in, line)) {
    const std::string content = trim(line);
    if (content.empty() || content[0] == '#' || content[0] == ';') continue;
    if (content.front() == '[' && content.back() == ']') {
      section = trim(std::string_view(content).substr(1, content.size() - 2));
      inSection = true;
      parentKey.clear();
      out[section];
      continue;
    }
    if (!inSection) continue;
    const size_t eq = content.find('=');
    if (eq == std::string::npos) continue;
    const std::string key = trim(std::string_view(content).substr(0, eq));
    const std::string value = trim(std::string_view(content).substr(eq + 1));
    const bool indented = line[0] == ' ' || line[0] == '\t';
    if (indented && !parentKey.empty()) {
      out[section][parentKey + "." + key] = value;
    } else {
      out[section][key] = value;
      parentKey = value.empty() ? key : std::string();
    }
  }
  return out;
}

const std::map<std::string, std::string>* findSection(const IniFile& file,
                                                      const std::string& name) {
  const auto it = file.find(name);
  return it == file.end() ? nullptr : &it->second;
}

std::optional<std::string> valueOf(const std::map<std::string, std::string>* section,
                                   const std::string& key) {
  if (section == nullptr) return std::nullopt;
  const auto it = section->find(key);
  if (it == section->end() || it->second.empty()) return std::nullopt;
  return it->second;
}

std::optional<std::string> nonEmpty(const EnvironmentLookup& environment, const std::string& name) {
  auto value = environment(name);
  if (value && value->empty()) return std::nullopt;
  return value;
}

std::string homeFile(const EnvironmentLookup& environment, const std::string& override,
                     const std::string& name) {
  if (auto path = nonEmpty(environment, override)) {
    if (path->starts_with("~/")) {
      if (auto home = nonEmpty(environment, "HOME")) return *home + path->substr(1);
    }
    return *path;
  }
  const auto home = nonEmpty(environment, "HOME");
  return home ? *home + "/.aws/" + name : std::string();
}

bool isTrue(const std::optional<std::string>& value) {
  return value && (*value == "true" || *value == "TRUE" || *value == "True" || *value == "1");
}

}  // namespace

EnvironmentLookup processEnvironment() {
  return [](const std::string& name) -> std::optional<std::string> {
    const char* value = std::getenv(name.c_str());
    if (value == nullptr) return std::nullopt;
    return std::string(value);
  };
}

AwsConfig resolveAwsConfig(const EnvironmentLookup& environment) {
  AwsConfig config;
  const auto profileVariable = nonEmpty(environment, "AWS_PROFILE");
  config.profile = profileVariable.value_or("default");

  const std::string credentialsPath =
      homeFile(environment, "AWS_SHARED_CREDENTIALS_FILE", "credentials");
  const std::string configPath = homeFile(environment, "AWS_CONFIG_FILE", "config");
  const IniFile credentialsFile = credentialsPath.empty() ? IniFile() : readIni(credentialsPath);
  const IniFile configFile = configPath.empty() ? IniFile() : readIni(configPath);
  const auto* credentialsSection = findSection(credentialsFile, config.profile);
  const auto* configSection = findSection(
      configFile, config.profile == "default" ? config.profile : "profile " + config.profile);
  if (profileVariable && credentialsSection == nullptr && configSection == nullptr) {
    throw InvalidArgument("AWS_PROFILE names the profile '" + config.profile + "', which neither " +
                          credentialsPath + " nor " + configPath + " has");
  }

  const auto describeFile = [](const std::string& path, const char* variable) {
    return (path.empty() ? std::string("no file (HOME is not set)") : path) + " (" + variable +
           ")";
  };
  config.credentialSources =
      "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY in the environment, then the profile '" +
      config.profile + "' (AWS_PROFILE) in " +
      describeFile(credentialsPath, "AWS_SHARED_CREDENTIALS_FILE") + " and " +
      describeFile(configPath, "AWS_CONFIG_FILE");

  const auto keyId = nonEmpty(environment, "AWS_ACCESS_KEY_ID");
  const auto secret = nonEmpty(environment, "AWS_SECRET_ACCESS_KEY");
  if (keyId || secret) {
    if (!keyId || !secret) {
      throw InvalidArgument(std::string("AWS credentials in the environment are incomplete: ") +
                            (keyId ? "AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not"
                                   : "AWS_SECRET_ACCESS_KEY is set but AWS_ACCESS_KEY_ID is not"));
    }
    config.credentials = {*keyId, *secret, nonEmpty(environment, "AWS_SESSION_TOKEN").value_or("")};
  } else {
    for (const auto& [section, path] :
         {std::pair(credentialsSection, credentialsPath), std::pair(configSection, configPath)}) {
      const auto fileKeyId = valueOf(section, "aws_access_key_id");
      const auto fileSecret = valueOf(section, "aws_secret_access_key");
      if (!fileKeyId && !fileSecret) continue;
      if (!fileKeyId || !fileSecret) {
        throw InvalidArgument(path + ": the profile '" + config.profile + "' has " +
                              (fileKeyId ? "aws_access_key_id but no aws_secret_access_key"
                                         : "aws_secret_access_key but no aws_access_key_id"));
      }
      config.credentials = {*fileKeyId, *fileSecret,
                            valueOf(section, "aws_session_token").value_or("")};
      break;
    }
  }

  if (auto region = nonEmpty(environment, "AWS_REGION")) {
    config.region = *region;
  } else if (auto defaultRegion = nonEmpty(environment, "AWS_DEFAULT_REGION")) {
    config.region = *defaultRegion;
  } else if (auto profileRegion = valueOf(configSection, "region")) {
    config.region = *profileRegion;
  }

  if (auto s3Endpoint = nonEmpty(environment, "AWS_ENDPOINT_URL_S3")) {
    config.endpointUrl = *s3Endpoint;
  } else if (auto endpoint = nonEmpty(environment, "AWS_ENDPOINT_URL")) {
    config.endpointUrl = *endpoint;
  } else if (!isTrue(environment("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS"))) {
    const auto servicesName = valueOf(configSection, "services");
    const auto* servicesSection =
        servicesName ? findSection(configFile, "services " + *servicesName) : nullptr;
    if (auto servicesEndpoint = valueOf(servicesSection, "s3.endpoint_url")) {
      config.endpointUrl = *servicesEndpoint;
    } else if (auto serviceEndpoint = valueOf(configSection, "s3.endpoint_url")) {
      config.endpointUrl = *serviceEndpoint;
    } else if (auto profileEndpoint = valueOf(configSection, "endpoint_url")) {
      config.endpointUrl = *profileEndpoint;
    }
  }
  while (config.endpointUrl.ends_with('/')) config.endpointUrl.pop_back();

  if (auto style = valueOf(configSection, "s3.addressing_style")) {
    if (*style == "path") config.addressingStyle = S3AddressingStyle::kPath;
    if (*style == "virtual") config.addressingStyle = S3AddressingStyle::kVirtual;
  }
  return config;
}

std::string unsignedRequestNote(const AwsConfig& config) {
  if (!config.credentials.anonymous()) return {};
  std::string note = "the request was sent unsigned, as no AWS credentials were found";
  if (!config.credentialSources.empty()) note += " (looked for: " + config.credentialSources + ")";
  return note + "; a bucket that is not public needs credentials";
}

}  // namespace quarry::io

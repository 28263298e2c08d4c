#include "quarry/io/crypto_library.h"

#include <dlfcn.h>
#include <openssl/evp.h>

#include <limits>
#include <mutex>
#include <optional>

#include "quarry/common/error.h"

namespace quarry::io {
namespace {

constexpr const char* kLibraryName = "libcrypto.so.3";

struct CryptoLibrary {
  const EVP_MD* (*evpSha256)();
  int (*evpDigest)(const void* data, size_t count, unsigned char* md, unsigned int* size,
                   const EVP_MD* type, ENGINE* impl);
  unsigned char* (*hmac)(const EVP_MD* md, const void* key, int keyLength,
                         const unsigned char* data, size_t dataLength, unsigned char* out,
                         unsigned int* outLength);
  EVP_MD* (*mdFetch)(OSSL_LIB_CTX* context, const char* algorithm, const char* properties);
  void (*mdFree)(EVP_MD* md);
  EVP_MD_CTX* (*contextNew)();
  void (*contextFree)(EVP_MD_CTX* context);
  int (*digestInit)(EVP_MD_CTX* context, const EVP_MD* type, ENGINE* impl);
  int (*digestUpdate)(EVP_MD_CTX* context, const void* data, size_t count);
  int (*digestFinal)(EVP_MD_CTX* context, unsigned char* md, unsigned int* size);
};

/// Why loading failed, said after "<purpose> needs OpenSSL 3".
struct LoadFailure {
  std::string reason;
};

template <typename Function>
void resolve(void* library, const char* name, Function& out) {
  void* symbol = ::dlsym(library, name);
  if (symbol == nullptr)
    throw LoadFailure{std::string(", but ") + kLibraryName + " has no function " + name};
  out = reinterpret_cast<Function>(symbol);
}

CryptoLibrary load() {
  // Never closed: the digests it returns are static objects of the library.
  void* library = ::dlopen(kLibraryName, RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char* reason = ::dlerror();
    throw LoadFailure{std::string(", which is loaded on demand, but ") + kLibraryName +
                      " cannot be loaded (install the package libssl3): " +
                      (reason != nullptr ? reason : "unknown reason")};
  }
  CryptoLibrary lib{};
  resolve(library, "EVP_sha256", lib.evpSha256);
  resolve(library, "EVP_Digest", lib.evpDigest);
  resolve(library, "HMAC", lib.hmac);
  resolve(library, "EVP_MD_fetch", lib.mdFetch);
  resolve(library, "EVP_MD_free", lib.mdFree);
  resolve(library, "EVP_MD_CTX_new", lib.contextNew);
  resolve(library, "EVP_MD_CTX_free", lib.contextFree);
  resolve(library, "EVP_DigestInit_ex", lib.digestInit);
  resolve(library, "EVP_DigestUpdate", lib.digestUpdate);
  resolve(library, "EVP_DigestFinal_ex", lib.digestFinal);
  return lib;
}

/// The loaded library; throws Unsupported naming `purpose` (what needs it) when it cannot be
/// loaded.
const CryptoLibrary& cryptoLibrary(const std::string& purpose) {
  // A failed load is remembered: retrying dlopen for every signed request would only repeat it.
  static std::once_flag once;
  static CryptoLibrary library;
  static std::optional<LoadFailure> failure;
  std::call_once(once, [] {
    try {
      library = load();
    } catch (const LoadFailure& e) {
      failure = e;
    }
  });
  if (failure) throw Unsupported(purpose + " needs OpenSSL 3" + failure->reason);
  return library;
}

constexpr const char* kSigning = "s3 request signing";

const char* algorithmName(DigestAlgorithm algorithm) {
  switch (algorithm) {
    case DigestAlgorithm::kMd5:
      return "MD5";
    case DigestAlgorithm::kSha1:
      return "SHA1";
    case DigestAlgorithm::kSha256:
      return "SHA256";
  }
  return "?";
}

void appendHexDigits(std::span<const uint8_t> bytes, std::string& out) {
  static constexpr char kDigits[] = "0123456789abcdef";
  for (const uint8_t b : bytes) {
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 0xF]);
  }
}

}  // namespace

Digester::Digester(DigestAlgorithm algorithm, const std::string& purpose) : purpose_(purpose) {
  const CryptoLibrary& lib = cryptoLibrary(purpose);
  md_ = lib.mdFetch(nullptr, algorithmName(algorithm), nullptr);
  context_ = lib.contextNew();
  if (md_ == nullptr || context_ == nullptr) {
    // An OpenSSL configured without the algorithm (a FIPS-only one has no MD5).
    if (md_ != nullptr) lib.mdFree(md_);
    throw Unsupported(purpose + ": " + kLibraryName + " offers no " + algorithmName(algorithm) +
                      " digest (EVP_MD_fetch failed; is OpenSSL restricted to FIPS algorithms?)");
  }
}

Digester::~Digester() {
  const CryptoLibrary& lib = cryptoLibrary(purpose_);
  lib.contextFree(context_);
  lib.mdFree(md_);
}

void Digester::appendHex(std::string_view data, std::string& out) {
  const CryptoLibrary& lib = cryptoLibrary(purpose_);
  std::array<uint8_t, EVP_MAX_MD_SIZE> digest{};
  unsigned int length = 0;
  if (lib.digestInit(context_, md_, nullptr) != 1 ||
      lib.digestUpdate(context_, data.data(), data.size()) != 1 ||
      lib.digestFinal(context_, digest.data(), &length) != 1) {
    throw Unsupported(purpose_ + ": " + kLibraryName + ": computing the digest of a value of " +
                      std::to_string(data.size()) + " bytes failed");
  }
  appendHexDigits(std::span(digest.data(), length), out);
}

Sha256Digest sha256(std::span<const uint8_t> data) {
  const CryptoLibrary& lib = cryptoLibrary(kSigning);
  Sha256Digest out{};
  unsigned int length = 0;
  if (lib.evpDigest(data.data(), data.size(), out.data(), &length, lib.evpSha256(), nullptr) != 1 ||
      length != out.size()) {
    throw Unsupported(std::string(kLibraryName) + ": EVP_Digest(SHA-256) failed");
  }
  return out;
}

Sha256Digest sha256(std::string_view data) {
  return sha256(std::span(reinterpret_cast<const uint8_t*>(data.data()), data.size()));
}

Sha256Digest hmacSha256(std::span<const uint8_t> key, std::string_view data) {
  const CryptoLibrary& lib = cryptoLibrary(kSigning);
  if (key.size() > static_cast<size_t>(std::numeric_limits<int>::max())) {
    throw InvalidArgument("HMAC key of " + std::to_string(key.size()) + " bytes is too long");
  }
  Sha256Digest out{};
  unsigned int length = 0;
  if (lib.hmac(lib.evpSha256(), key.data(), static_cast<int>(key.size()),
               reinterpret_cast<const unsigned char*>(data.data()), data.size(), out.data(),
               &length) == nullptr ||
      length != out.size()) {
    throw Unsupported(std::string(kLibraryName) + ": HMAC(SHA-256) failed");
  }
  return out;
}

std::string hexEncode(std::span<const uint8_t> bytes) {
  std::string out;
  out.reserve(bytes.size() * 2);
  appendHexDigits(bytes, out);
  return out;
}

}  // namespace quarry::io

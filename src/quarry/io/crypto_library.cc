#include "quarry/io/crypto_library.h"

#include <dlfcn.h>
#include <openssl/evp.h>

#include <limits>
#include <mutex>

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
};

template <typename Function>
void resolve(void* library, const char* name, Function& out) {
  void* symbol = ::dlsym(library, name);
  if (symbol == nullptr) {
    throw Unsupported(std::string("s3 request signing needs OpenSSL 3, but ") + kLibraryName +
                      " has no function " + name);
  }
  out = reinterpret_cast<Function>(symbol);
}

CryptoLibrary load() {
  // Never closed: the digests it returns are static objects of the library.
  void* library = ::dlopen(kLibraryName, RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char* reason = ::dlerror();
    throw Unsupported(std::string("s3 request signing needs OpenSSL 3, which is loaded on demand, "
                                  "but ") +
                      kLibraryName + " cannot be loaded (install the package libssl3): " +
                      (reason != nullptr ? reason : "unknown reason"));
  }
  CryptoLibrary lib{};
  resolve(library, "EVP_sha256", lib.evpSha256);
  resolve(library, "EVP_Digest", lib.evpDigest);
  resolve(library, "HMAC", lib.hmac);
  return lib;
}

const CryptoLibrary& cryptoLibrary() {
  // A failed load is remembered: retrying dlopen for every signed request would only repeat it.
  static std::once_flag once;
  static CryptoLibrary library;
  static std::string failure;
  std::call_once(once, [] {
    try {
      library = load();
    } catch (const Unsupported& e) {
      failure = e.what();
    }
  });
  if (!failure.empty()) throw Unsupported(failure);
  return library;
}

}  // namespace

Sha256Digest sha256(std::span<const uint8_t> data) {
  const CryptoLibrary& lib = cryptoLibrary();
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
  const CryptoLibrary& lib = cryptoLibrary();
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
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (const uint8_t b : bytes) {
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 0xF]);
  }
  return out;
}

}  // namespace quarry::io

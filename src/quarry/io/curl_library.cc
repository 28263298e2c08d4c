#include "quarry/io/curl_library.h"

#include <dlfcn.h>

#include <mutex>
#include <string>

#include "quarry/common/error.h"

namespace quarry::io {
namespace {

constexpr const char* kLibraryName = "libcurl.so.4";

template <typename Function>
void resolve(void* library, const char* soname, const char* name, Function& out) {
  void* symbol = ::dlsym(library, name);
  if (symbol == nullptr) {
    throw Unsupported(std::string("http(s) and s3 storage need libcurl, but ") + soname +
                      " has no function " + name + " (is it a libcurl at all, or a very old one?)");
  }
  out = reinterpret_cast<Function>(symbol);
}

}  // namespace

CurlLibrary loadCurlLibrary(const char* soname) {
  // The handle is never closed: libcurl's global state lives as long as the process.
  void* library = ::dlopen(soname, RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char* reason = ::dlerror();
    throw Unsupported(std::string("http(s) and s3 storage need libcurl, which is loaded on demand, but ") +
                      soname + " cannot be loaded (install the package libcurl4): " +
                      (reason != nullptr ? reason : "unknown reason"));
  }
  CurlLibrary lib{};
  resolve(library, soname, "curl_global_init", lib.globalInit);
  resolve(library, soname, "curl_easy_init", lib.easyInit);
  resolve(library, soname, "curl_easy_cleanup", lib.easyCleanup);
  resolve(library, soname, "curl_easy_reset", lib.easyReset);
  resolve(library, soname, "curl_easy_setopt", lib.easySetopt);
  resolve(library, soname, "curl_easy_perform", lib.easyPerform);
  resolve(library, soname, "curl_easy_getinfo", lib.easyGetinfo);
  resolve(library, soname, "curl_easy_strerror", lib.easyStrerror);
  resolve(library, soname, "curl_slist_append", lib.slistAppend);
  resolve(library, soname, "curl_slist_free_all", lib.slistFreeAll);
  const CURLcode init = lib.globalInit(CURL_GLOBAL_DEFAULT);
  if (init != CURLE_OK) {
    throw Unsupported(std::string("http(s) and s3 storage need libcurl, but curl_global_init failed: ") +
                      lib.easyStrerror(init));
  }
  return lib;
}

const CurlLibrary& curlLibrary() {
  // A failed load is remembered too: retrying dlopen on every open would only repeat the error.
  static std::once_flag once;
  static CurlLibrary library;
  static std::string failure;
  std::call_once(once, [] {
    try {
      library = loadCurlLibrary(kLibraryName);
    } catch (const Unsupported& e) {
      failure = e.what();
    }
  });
  if (!failure.empty()) throw Unsupported(failure);
  return library;
}

}  // namespace quarry::io

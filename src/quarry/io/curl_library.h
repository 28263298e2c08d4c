#pragma once

#include <curl/curl.h>

/// libcurl, loaded with dlopen the first time a remote URI is opened. quarry does not
/// link libcurl: resolving its dependencies (TLS, HTTP/2, SSH, LDAP, ...) costs every
/// process milliseconds before main, which a query over local files must not pay.
/// <curl/curl.h> is included for its types and constants only; every call goes
/// through the function table below.
namespace quarry::io {

struct CurlLibrary {
  CURLcode (*globalInit)(long flags);
  CURL* (*easyInit)();
  void (*easyCleanup)(CURL* handle);
  void (*easyReset)(CURL* handle);
  CURLcode (*easySetopt)(CURL* handle, CURLoption option, ...);
  CURLcode (*easyPerform)(CURL* handle);
  CURLcode (*easyGetinfo)(CURL* handle, CURLINFO info, ...);
  const char* (*easyStrerror)(CURLcode code);
  curl_slist* (*slistAppend)(curl_slist* list, const char* value);
  void (*slistFreeAll)(curl_slist* list);
};

/// Loads the libcurl named `soname` with dlopen, resolves the table and runs
/// curl_global_init; throws Unsupported naming the library and the loader's reason.
/// (curlLibrary() below is the one every caller wants; this is for tests.)
CurlLibrary loadCurlLibrary(const char* soname);

/// Returns libcurl's function table, loading libcurl.so.4 and running curl_global_init
/// on the first call (thread-safe); throws Unsupported naming the library and the
/// loader's reason when it cannot be loaded.
const CurlLibrary& curlLibrary();

}  // namespace quarry::io

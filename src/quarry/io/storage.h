#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

/// Storage as quarry's readers see it: objects of known size read by byte range.
/// Formats never know where the bytes come from (local disk, HTTP, S3).
namespace quarry::io {

/// One range of a batch read: `out.size()` bytes at `offset`, read into `out`.
struct ReadRange {
  uint64_t offset = 0;
  std::span<uint8_t> out;
};

/// What an earlier open learnt of an object: its size and, where the storage
/// has one, its version (an HTTP ETag). An object opened with them costs no
/// request to open; every later answer is still checked against them, so an
/// object changed in between fails with IoError rather than mixing versions.
struct ObjectIdentity {
  uint64_t size = 0;
  std::optional<std::string> version;
};

/// One readable object (a file, an HTTP resource, an S3 key).
class StorageObject {
 public:
  virtual ~StorageObject() = default;

  /// Returns the object's URI as the user gave it (used in every error message).
  virtual const std::string& uri() const = 0;

  /// Returns the object's size in bytes.
  virtual uint64_t size() const = 0;

  /// Reads exactly `out.size()` bytes at `offset`; throws IoError naming the URI
  /// and the range when the object is shorter or the read fails.
  virtual void readAt(uint64_t offset, std::span<uint8_t> out) = 0;

  /// Reads every range of `ranges` (in any order; they may overlap, their
  /// destinations may not) before returning; errors as readAt. Callers hand over
  /// all the ranges they will decode next, so that a remote object can merge
  /// near ones into one request and send requests concurrently. The default
  /// reads each with readAt, which suits storage without a round trip to save.
  virtual void readRanges(std::span<const ReadRange> ranges);

  /// Reads the last `length` bytes (all of them when the object is smaller), the
  /// one-request way to open a file whose size is not yet known.
  virtual std::vector<uint8_t> readTail(uint64_t length);

  /// Returns the object's version when the storage tells one (an HTTP ETag, a
  /// local file's modification time).
  virtual std::optional<std::string> version() const { return std::nullopt; }

  /// Throws IoError naming the URI when the object is no longer what it was when
  /// opened: a local file written to in place while it was read (a remote object
  /// checks its ETag on every answer and needs nothing here). Readers call it once
  /// a split, or a command's reads of the object, are done: one fstat, not one per
  /// read, and no answer built from mixed bytes is returned.
  virtual void checkUnchanged() const {}

  /// Returns how many read requests this object has served.
  virtual uint64_t requestCount() const = 0;

  /// Returns how many bytes this object has read.
  virtual uint64_t bytesRead() const = 0;
};

/// Opens objects for one URI scheme.
class StorageProvider {
 public:
  virtual ~StorageProvider() = default;

  /// Opens the object at `uri`; throws IoError when it does not exist.
  virtual std::unique_ptr<StorageObject> open(const std::string& uri) = 0;
};

/// Whether `uri` names an object behind a network round trip (http, https, s3).
bool isRemoteUri(std::string_view uri);

/// Opens `uri` with the provider its scheme names (a plain path is a local file).
std::unique_ptr<StorageObject> openObject(const std::string& uri);

/// Opens `uri` as an object already seen as `known` (same size and version):
/// a remote object opens without a request.
std::unique_ptr<StorageObject> openObject(const std::string& uri, const ObjectIdentity& known);

}  // namespace quarry::io

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "quarry/arrow.h"
#include "quarry/error.h"
#include "quarry/session.h"
#include "tests/support/build_paths.h"

/// writeArrowIpcStream over exportArrowStream: a query's result written as the
/// Arrow IPC streaming format ("a stream of encapsulated messages ... the
/// schema first ... an end-of-stream marker", arrow.apache.org/docs/format/
/// Columnar.html). The messages' contents are checked byte by byte in
/// tests/arrow/ipc_stream_writer_test.cc and read by apache-arrow in
/// tests/api/arrow_ipc_reader_test.mjs; here the framing of a whole result.
namespace quarry {
namespace {

std::string fixture(const std::string& name) {
  return std::string(QUARRY_SOURCE_DIR) + "/tests/fixtures/engine_source/" + name;
}

uint32_t word(const std::string& bytes, size_t at) {
  uint32_t value;
  std::memcpy(&value, bytes.data() + at, 4);
  return value;
}

/// Counts the messages of `stream`, checking each one's framing; returns -1 on a broken one.
int countMessages(const std::string& stream) {
  size_t at = 0;
  int messages = 0;
  while (at + 8 <= stream.size()) {
    if (word(stream, at) != 0xFFFFFFFFu) return -1;
    const uint32_t metadata = word(stream, at + 4);
    if (metadata == 0) return at + 8 == stream.size() ? messages : -1;  // the end-of-stream marker
    if ((at + 8 + metadata) % 8 != 0) return -1;
    // bodyLength is the Message's field 3: read through its vtable.
    const auto* flat = reinterpret_cast<const uint8_t*>(stream.data() + at + 8);
    uint32_t root;
    std::memcpy(&root, flat, 4);
    int32_t soffset;
    std::memcpy(&soffset, flat + root, 4);
    const uint8_t* vtable = flat + root - soffset;
    uint16_t field;
    std::memcpy(&field, vtable + 4 + 2 * 3, 2);
    int64_t body = 0;
    if (field != 0) std::memcpy(&body, flat + root + field, 8);
    at += 8 + metadata + static_cast<size_t>(body);
    ++messages;
  }
  return -1;
}

TEST(ArrowIpc, AResultIsTheSchemaABatchPerPageAndTheEndMarker) {
  const Session session;
  ArrowArrayStream stream;
  exportArrowStream(session.execute("FROM \"" + fixture("multi_row_groups.parquet") + "\""),
                    &stream);
  std::string bytes;
  writeArrowIpcStream(&stream, [&bytes](std::string_view piece) { bytes += piece; });
  EXPECT_NE(stream.release, nullptr) << "the stream stays the caller's";
  stream.release(&stream);
  // 10,000 rows in 4 row groups: a schema and at least two record batches.
  EXPECT_GE(countMessages(bytes), 3);
}

TEST(ArrowIpc, DictionaryColumnsAreWrittenAsThePlainFormWouldBe) {
  // The stream gives mode, code and tag dictionary-encoded (arrow.h); the writer
  // writes them decoded, so the bytes equal those of the all-plain stream.
  const Session session;
  const std::string query = "FROM \"" + fixture("dictionary_strings.parquet") + "\"";
  auto ipcOf = [&](ArrowStreamOptions options) {
    ArrowArrayStream stream;
    exportArrowStream(session.execute(query), &stream, options);
    std::string bytes;
    writeArrowIpcStream(&stream, [&bytes](std::string_view piece) { bytes += piece; });
    stream.release(&stream);
    return bytes;
  };
  const std::string coded = ipcOf({.dictionaries = true});
  const std::string plain = ipcOf({.dictionaries = false});
  EXPECT_GE(countMessages(coded), 4);
  EXPECT_TRUE(coded == plain) << "the dictionary-encoded stream's IPC differs from the plain one's";
}

TEST(ArrowIpc, AnEmptyResultIsTheSchemaAndTheEndMarker) {
  const Session session;
  ArrowArrayStream stream;
  exportArrowStream(
      session.execute("FROM \"" + fixture("all_types.parquet") + "\" | WHERE id > 100"), &stream);
  std::FILE* file = std::tmpfile();
  ASSERT_NE(file, nullptr);
  writeArrowIpcStream(&stream, file);
  stream.release(&stream);
  std::string bytes(static_cast<size_t>(std::ftell(file)), '\0');
  std::rewind(file);
  ASSERT_EQ(std::fread(bytes.data(), 1, bytes.size(), file), bytes.size());
  std::fclose(file);
  EXPECT_EQ(countMessages(bytes), 1);
}

TEST(ArrowIpc, AFailingStreamThrowsItsLastError) {
  const Session session;
  Result result = session.execute("FROM \"" + fixture("multi_row_groups.parquet") + "\"");
  result.cancel();
  ArrowArrayStream stream;
  exportArrowStream(std::move(result), &stream);
  std::string bytes;
  try {
    writeArrowIpcStream(&stream, [&bytes](std::string_view piece) { bytes += piece; });
    ADD_FAILURE() << "a cancelled result was written whole";
  } catch (const IoError& e) {
    EXPECT_STREQ(e.what(), "the query was cancelled");
  }
  stream.release(&stream);
  EXPECT_EQ(countMessages(bytes), -1) << "no end-of-stream marker after a failure";
}

}  // namespace
}  // namespace quarry

#include "quarry/formats/orc/stripe_reader.h"

#include <algorithm>

#include "quarry/common/error.h"
#include "quarry/formats/orc/compression_chunks.h"

namespace quarry::orc {
namespace {

/// Streams closer than this are read in one request, gap included: a second
/// request costs more than reading a few KiB more.
constexpr uint64_t kMergeGap = 64 * 1024;

bool isIndexStream(StreamKind kind) {
  return kind == proto::Stream::ROW_INDEX || kind == proto::Stream::BLOOM_FILTER ||
         kind == proto::Stream::BLOOM_FILTER_UTF8;
}

std::string stripeContext(const OrcTail& tail, size_t stripeIndex) {
  return tail.uri + ": stripe " + std::to_string(stripeIndex);
}

}  // namespace

std::string toString(StreamKind kind) {
  switch (kind) {
    case proto::Stream::PRESENT:
      return "PRESENT";
    case proto::Stream::DATA:
      return "DATA";
    case proto::Stream::LENGTH:
      return "LENGTH";
    case proto::Stream::DICTIONARY_DATA:
      return "DICTIONARY_DATA";
    case proto::Stream::DICTIONARY_COUNT:
      return "DICTIONARY_COUNT";
    case proto::Stream::SECONDARY:
      return "SECONDARY";
    case proto::Stream::ROW_INDEX:
      return "ROW_INDEX";
    case proto::Stream::BLOOM_FILTER:
      return "BLOOM_FILTER";
    case proto::Stream::BLOOM_FILTER_UTF8:
      return "BLOOM_FILTER_UTF8";
    case proto::Stream::ENCRYPTED_INDEX:
      return "ENCRYPTED_INDEX";
    case proto::Stream::ENCRYPTED_DATA:
      return "ENCRYPTED_DATA";
    case proto::Stream::STRIPE_STATISTICS:
      return "STRIPE_STATISTICS";
    case proto::Stream::FILE_STATISTICS:
      return "FILE_STATISTICS";
  }
  return "stream kind " + std::to_string(static_cast<int>(kind));
}

StripeFooter decodeStripeFooter(std::span<const uint8_t> bytes, const OrcTail& tail,
                                const OrcSchema& schema, size_t stripeIndex,
                                const std::string& context) {
  const proto::StripeInformation& info = tail.footer.stripes(static_cast<int>(stripeIndex));
  StripeFooter footer;
  footer.stripeIndex = stripeIndex;
  footer.rowCount = info.numberofrows();
  parseMessage(footer.message, bytes, context + " footer");
  footer.writerTimezone = footer.message.writertimezone();
  if (footer.message.columns_size() < static_cast<int>(schema.columnCount())) {
    throw CorruptFile(context + ": the stripe footer gives encodings for " +
                      std::to_string(footer.message.columns_size()) + " columns, the schema has " +
                      std::to_string(schema.columnCount()));
  }
  for (uint32_t c = 0; c < schema.columnCount(); ++c) {
    const auto& encoding = footer.message.columns(static_cast<int>(c));
    if (!encoding.has_kind()) {
      throw CorruptFile(context + ": column " + std::to_string(c) +
                        " has no (or an unknown) encoding kind");
    }
    const bool dictionary = encoding.kind() == proto::ColumnEncoding::DICTIONARY ||
                            encoding.kind() == proto::ColumnEncoding::DICTIONARY_V2;
    const TypeKind kind = schema.column(c).kind;
    if (dictionary && kind != TypeKind::kString && kind != TypeKind::kVarchar &&
        kind != TypeKind::kChar) {
      throw CorruptFile(context + ": column " + std::to_string(c) + " of type " + toString(kind) +
                        " has a dictionary encoding");
    }
  }
  const uint64_t sectionLength = info.indexlength() + info.datalength();
  uint64_t offset = info.offset();
  uint64_t used = 0;
  footer.streams.reserve(static_cast<size_t>(footer.message.streams_size()));
  for (const proto::Stream& stream : footer.message.streams()) {
    if (!stream.has_kind()) {
      throw CorruptFile(context + ": a stream has no (or an unknown) kind");
    }
    if (stream.length() > sectionLength - used) {
      throw CorruptFile(context + ": " + toString(stream.kind()) + " stream of column " +
                        std::to_string(stream.column()) + " (" + std::to_string(stream.length()) +
                        " bytes) runs past the stripe's index and data (" +
                        std::to_string(sectionLength) + " bytes)");
    }
    if (stream.column() >= schema.columnCount() && stream.kind() < proto::Stream::ENCRYPTED_INDEX) {
      throw CorruptFile(context + ": a " + toString(stream.kind()) + " stream names column " +
                        std::to_string(stream.column()) + " of " +
                        std::to_string(schema.columnCount()));
    }
    footer.streams.push_back({stream.column(), stream.kind(), offset, stream.length()});
    offset += stream.length();
    used += stream.length();
  }
  return footer;
}

StripeFooter readStripeFooter(io::StorageObject& file, const OrcTail& tail, const OrcSchema& schema,
                              size_t stripeIndex) {
  const std::string context = stripeContext(tail, stripeIndex);
  const proto::StripeInformation& info = tail.footer.stripes(static_cast<int>(stripeIndex));
  std::vector<uint8_t> raw(info.footerlength());
  file.readAt(info.offset() + info.indexlength() + info.datalength(), raw);
  const std::vector<uint8_t> bytes = decompressStream(tail.compression, raw, context + " footer");
  return decodeStripeFooter(bytes, tail, schema, stripeIndex, context);
}

std::span<const uint8_t> StripeStreams::find(uint32_t column, StreamKind kind, bool& found) const {
  for (const Entry& entry : entries_) {
    if (entry.column == column && entry.kind == kind) {
      found = true;
      return entry.bytes;
    }
  }
  found = false;
  return {};
}

std::span<const uint8_t> StripeStreams::require(uint32_t column, StreamKind kind,
                                                const std::string& context) const {
  bool found = false;
  auto bytes = find(column, kind, found);
  if (!found) {
    throw CorruptFile(context + ": the " + toString(kind) + " stream of column " +
                      std::to_string(column) + " is missing");
  }
  return bytes;
}

StripeStreams readStripeStreams(io::StorageObject& file, const OrcTail& tail,
                                const StripeFooter& footer, const std::vector<bool>& columns,
                                bool withIndex, const PreloadedRange* preloaded, bool indexOnly) {
  std::vector<const StreamLocation*> wanted;
  for (const StreamLocation& s : footer.streams) {
    if (s.column < columns.size() && columns[s.column] && s.kind < proto::Stream::ENCRYPTED_INDEX &&
        (withIndex || indexOnly || !isIndexStream(s.kind)) &&
        (!indexOnly || isIndexStream(s.kind))) {
      wanted.push_back(&s);
    }
  }
  StripeStreams result;
  size_t i = 0;
  const std::string context = stripeContext(tail, footer.stripeIndex);
  const auto addStream = [&](const StreamLocation& s, std::span<const uint8_t> raw) {
    auto bytes = decompressStream(
        tail.compression, raw,
        context + " column " + std::to_string(s.column) + " " + toString(s.kind) + " stream");
    result.totalBytes_ += bytes.size();
    result.entries_.push_back({s.column, s.kind, std::move(bytes)});
  };
  // Streams are in file order: merge close ones into ranges, and fetch every
  // range in one readRanges call (a remote object sends them concurrently).
  struct Group {
    size_t first = 0;
    size_t last = 0;  // exclusive
    uint64_t start = 0;
    std::vector<uint8_t> bytes;
  };
  std::vector<Group> groups;
  std::vector<const StreamLocation*> fromPreloaded;
  while (i < wanted.size()) {
    const StreamLocation& first = *wanted[i];
    if (preloaded != nullptr && first.offset >= preloaded->offset &&
        first.offset - preloaded->offset <= preloaded->bytes.size() &&
        first.length <= preloaded->bytes.size() - (first.offset - preloaded->offset)) {
      fromPreloaded.push_back(&first);
      ++i;
      continue;
    }
    size_t j = i + 1;
    uint64_t end = first.offset + first.length;
    while (j < wanted.size() && wanted[j]->offset <= end + kMergeGap &&
           !(preloaded != nullptr && wanted[j]->offset >= preloaded->offset &&
             wanted[j]->offset - preloaded->offset <= preloaded->bytes.size())) {
      end = std::max(end, wanted[j]->offset + wanted[j]->length);
      ++j;
    }
    groups.push_back({i, j, first.offset, std::vector<uint8_t>(end - first.offset)});
    i = j;
  }
  if (!groups.empty()) {
    std::vector<io::ReadRange> ranges;
    ranges.reserve(groups.size());
    for (Group& g : groups) ranges.push_back({g.start, g.bytes});
    file.readRanges(ranges);
  }
  for (const StreamLocation* s : fromPreloaded) {
    addStream(*s, preloaded->bytes.subspan(s->offset - preloaded->offset, s->length));
  }
  for (const Group& g : groups) {
    for (size_t k = g.first; k < g.last; ++k) {
      const StreamLocation& s = *wanted[k];
      addStream(s, std::span<const uint8_t>(g.bytes.data() + (s.offset - g.start), s.length));
    }
  }
  return result;
}

StripeData readStripe(io::StorageObject& file, const OrcTail& tail, const OrcSchema& schema,
                      size_t stripeIndex, const std::vector<bool>& columns, bool withIndex) {
  const bool all = std::find(columns.begin(), columns.end(), false) == columns.end();
  if (!all) {
    StripeFooter footer = readStripeFooter(file, tail, schema, stripeIndex);
    StripeStreams streams = readStripeStreams(file, tail, footer, columns, withIndex);
    return {std::move(footer), std::move(streams)};
  }
  const std::string context = stripeContext(tail, stripeIndex);
  const proto::StripeInformation& info = tail.footer.stripes(static_cast<int>(stripeIndex));
  const uint64_t start = info.offset() + (withIndex ? 0 : info.indexlength());
  const uint64_t footerStart = info.offset() + info.indexlength() + info.datalength();
  std::vector<uint8_t> bytes(footerStart + info.footerlength() - start);
  file.readAt(start, bytes);
  const std::vector<uint8_t> footerBytes = decompressStream(
      tail.compression, std::span<const uint8_t>(bytes).subspan(footerStart - start),
      context + " footer");
  StripeFooter footer = decodeStripeFooter(footerBytes, tail, schema, stripeIndex, context);
  const PreloadedRange preloaded{start, std::span<const uint8_t>(bytes).first(footerStart - start)};
  StripeStreams streams = readStripeStreams(file, tail, footer, columns, withIndex, &preloaded);
  return {std::move(footer), std::move(streams)};
}

}  // namespace quarry::orc

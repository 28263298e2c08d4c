#include "quarry/engine/source/lookup_file.h"

#include "quarry/common/error.h"
#include "quarry/engine/source/external_source_resolver.h"

namespace quarry::engine {

namespace {

[[noreturn]] void throwTooLarge(const std::string& uri, uint64_t rows, bool atLeast,
                                const LookupReadOptions& options) {
  throw QueryError(
      "the LOOKUP JOIN file " + uri + " holds " + (atLeast ? "more than " : "") +
          std::to_string(rows) + " rows, more than the limit of " +
          std::to_string(options.maxRows) + " rows a lookup file may hold",
      options.position.line, options.position.column,
      "the file is held in memory whole; raise the limit with --lookup-max-rows N (the "
      "library's SessionOptions::lookupMaxRows, Python's lookup_max_rows), or filter the file "
      "into a smaller one");
}

}  // namespace

std::shared_ptr<const LookupFile> readLookupFile(const std::string& uri,
                                                 const LookupReadOptions& options) {
  ResolveOptions resolve;
  resolve.threads = options.threads;
  resolve.metadataCacheDirectory = options.metadataCacheDirectory;
  resolve.hivePartitioning = false;  // the file's columns are the lookup's, whatever its folders
  ResolvedSource source;
  try {
    source = ExternalSourceResolver::resolve({uri}, resolve);
  } catch (const IoError& e) {
    throw QueryError(std::string("the LOOKUP JOIN file cannot be read: ") + e.what(),
                     options.position.line, options.position.column);
  } catch (const InvalidArgument& e) {
    throw QueryError(std::string("the LOOKUP JOIN file cannot be read: ") + e.what(),
                     options.position.line, options.position.column);
  }

  auto lookup = std::make_shared<LookupFile>();
  lookup->uri = uri;
  lookup->schema = source.schema;
  // The footers' row counts refuse a large file before any of its data is read.
  uint64_t footerRows = 0;
  for (const ResolvedFile& file : source.files) {
    if (options.metrics != nullptr) {
      options.metrics->bytesRead += file.metadata.bytesRead;
      options.metrics->requests += file.metadata.requests;
      options.metrics->footerBytesRead += file.metadata.bytesRead;
      options.metrics->footerRequests += file.metadata.requests;
    }
    if (file.metadata.statistics)
      footerRows += static_cast<uint64_t>(file.metadata.statistics->rowCount);
  }
  const std::string shown = source.files.size() == 1 ? source.files[0].uri : uri;
  if (footerRows > options.maxRows) throwTooLarge(shown, footerRows, false, options);

  ReadRequest request;
  for (const Field& field : lookup->schema) request.columns.push_back(field.name);
  request.outputSchema = lookup->schema;
  request.metrics = options.metrics;
  for (const Field& field : lookup->schema) lookup->columns.emplace_back(field.type);
  for (const ResolvedFile& file : source.files) {
    for (const FileSplit& split : file.metadata.splits) {
      LocalSupplier pages = file.reader->read(split, request);
      while (std::optional<Page> page = pages()) {
        lookup->rows += page->positionCount();
        // A footer without row counts: the pages stop the read instead.
        if (lookup->rows > options.maxRows) throwTooLarge(shown, options.maxRows, true, options);
        for (size_t c = 0; c < lookup->columns.size(); ++c)
          lookup->columns[c].appendAll(page->block(c));
      }
    }
  }
  return lookup;
}

}  // namespace quarry::engine

#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

/// One page of a ListObjectsV2 answer, the XML S3 returns for
/// GET /bucket?list-type=2&prefix=...&continuation-token=...:
///
///   <ListBucketResult> <IsTruncated>true</IsTruncated>
///     <Contents><Key>data/a.parquet</Key><ETag>"9b2cf535f27731c9"</ETag><Size>1024</Size>...
///     </Contents> ...
///     <NextContinuationToken>1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=</NextContinuationToken>
///   </ListBucketResult>
namespace quarry::io {

struct S3ListedObject {
  std::string key;
  uint64_t size = 0;
  std::string etag;  // as the listing writes it, quotes included; empty when absent
};

struct S3ListPage {
  std::vector<S3ListedObject> objects;
  bool truncated = false;
  std::string nextContinuationToken;
};

/// Parses one ListObjectsV2 page (XML entities decoded); throws IoError naming `uri` when
/// the document is not a complete ListBucketResult (a body cut short is caught here).
S3ListPage parseListObjectsV2(std::string_view xml, const std::string& uri);

/// Decodes the five predefined XML entities and numeric character references.
std::string decodeXmlText(std::string_view text);

}  // namespace quarry::io

#include "quarry/cli/statistics_view.h"

#include "quarry/cli/text_table.h"

namespace quarry::cli {

namespace {

std::string exactness(const std::optional<bool>& isExact) {
  if (!isExact.has_value()) {
    return "";
  }
  return *isExact ? "  (exact)" : "  (not exact)";
}

}  // namespace

void writeRenderedJson(JsonWriter& json, const RenderedValue& value) {
  if (value.kind == RenderedValue::Kind::kNumber) {
    json.rawNumber(value.text);
  } else {
    json.value(value.text);
  }
}

void writeBoundJson(JsonWriter& json, std::string_view bytes, const ValueType& type) {
  json.beginObject(/*isInline=*/true);
  json.key("value");
  writeRenderedJson(json, renderValue(bytes, type));
  json.field("hex", toHex(bytes));
  json.endObject();
}

void writeStatisticsJson(JsonWriter& json, const parquet::Statistics& statistics,
                         const ValueType& type) {
  const auto bound = [&](std::string_view name, const std::optional<std::string>& bytes) {
    json.key(name);
    if (bytes.has_value()) {
      writeBoundJson(json, *bytes, type);
    } else {
      json.null();
    }
  };
  json.beginObject();
  bound("min_value", statistics.min_value);
  bound("max_value", statistics.max_value);
  json.field("is_min_value_exact", statistics.is_min_value_exact);
  json.field("is_max_value_exact", statistics.is_max_value_exact);
  bound("min", statistics.min);
  bound("max", statistics.max);
  json.field("null_count", statistics.null_count);
  json.field("distinct_count", statistics.distinct_count);
  json.field("nan_count", statistics.nan_count);
  json.endObject();
}

void appendStatisticsText(std::string& out, std::string_view indent,
                          const parquet::Statistics& statistics, const ValueType& type,
                          size_t labelWidth) {
  constexpr size_t kValueWidth = 64;
  bool any = false;
  const auto line = [&](std::string_view label, const std::string& value) {
    appendField(out, indent, label, value, labelWidth);
    any = true;
  };
  if (statistics.min_value.has_value()) {
    line("min_value", boundText(*statistics.min_value, type, kValueWidth) +
                          exactness(statistics.is_min_value_exact));
  }
  if (statistics.max_value.has_value()) {
    line("max_value", boundText(*statistics.max_value, type, kValueWidth) +
                          exactness(statistics.is_max_value_exact));
  }
  // Exactness flags without their bound are still part of what was carried.
  if (!statistics.min_value.has_value() && statistics.is_min_value_exact.has_value()) {
    line("is_min_value_exact", *statistics.is_min_value_exact ? "true" : "false");
  }
  if (!statistics.max_value.has_value() && statistics.is_max_value_exact.has_value()) {
    line("is_max_value_exact", *statistics.is_max_value_exact ? "true" : "false");
  }
  if (statistics.min.has_value()) {
    line("min (deprecated)", boundText(*statistics.min, type, kValueWidth));
  }
  if (statistics.max.has_value()) {
    line("max (deprecated)", boundText(*statistics.max, type, kValueWidth));
  }
  if (statistics.null_count.has_value()) {
    line("null_count", std::to_string(*statistics.null_count));
  }
  if (statistics.distinct_count.has_value()) {
    line("distinct_count", std::to_string(*statistics.distinct_count));
  }
  if (statistics.nan_count.has_value()) {
    line("nan_count", std::to_string(*statistics.nan_count));
  }
  if (!any) {
    line("(empty)", "the Statistics struct carries no field");
  }
}

std::string summarizeStatistics(const parquet::Statistics& statistics, const ValueType& type) {
  constexpr size_t kValueWidth = 20;
  std::string out;
  const auto part = [&](std::string_view label, const std::string& value) {
    if (!out.empty()) {
      out += ' ';
    }
    out += label;
    out += '=';
    out += value;
  };
  if (statistics.min_value.has_value()) {
    part("min", boundText(*statistics.min_value, type, kValueWidth));
  } else if (statistics.min.has_value()) {
    part("min(old)", boundText(*statistics.min, type, kValueWidth));
  }
  if (statistics.max_value.has_value()) {
    part("max", boundText(*statistics.max_value, type, kValueWidth));
  } else if (statistics.max.has_value()) {
    part("max(old)", boundText(*statistics.max, type, kValueWidth));
  }
  if (statistics.null_count.has_value()) {
    part("nulls", std::to_string(*statistics.null_count));
  }
  if (statistics.distinct_count.has_value()) {
    part("distinct", std::to_string(*statistics.distinct_count));
  }
  if (statistics.nan_count.has_value()) {
    part("nans", std::to_string(*statistics.nan_count));
  }
  return out.empty() ? "(empty)" : out;
}

std::string boundText(std::string_view bytes, const ValueType& type, size_t maxWidth) {
  return formatForText(renderValue(bytes, type), maxWidth);
}

}  // namespace quarry::cli

#include "arrow_python.h"

// clang-format off
#include <datetime.h>
// clang-format on
#include <pybind11/numpy.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

#include "quarry/common/error.h"
#include "quarry/value_text.h"

namespace py = pybind11;

namespace quarry::python {

namespace {

/// decimal.Decimal and uuid.UUID, imported once (the module lives as long as the process).
PyObject* gDecimal = nullptr;
PyObject* gUuid = nullptr;

bool validAt(const ArrowArray* array, int64_t row) {
  const auto* bits = static_cast<const uint8_t*>(array->buffers[0]);
  return bits == nullptr || ((bits[row / 8] >> (row % 8)) & 1) != 0;
}

template <typename T>
T valueAt(const ArrowArray* array, int64_t row) {
  T value;
  std::memcpy(&value, static_cast<const uint8_t*>(array->buffers[1]) + row * sizeof(T), sizeof(T));
  return value;
}

/// The element type of a list type: the list's fields describe its elements.
DataType elementType(const DataType& list) {
  DataType element = list;
  element.kind = list.elementKind;
  element.elementKind = TypeKind::kNull;
  return element;
}

/// Units of a TimeUnit (kMillis, kMicros, kNanos) in a second.
int64_t unitsPerSecond(TimeUnit unit) {
  static constexpr int64_t kUnits[] = {1'000, 1'000'000, 1'000'000'000};
  return kUnits[static_cast<size_t>(unit)];
}

/// Days since 1970-01-01 -> proleptic Gregorian year, month, day.
void civilFromDays(int64_t days, int64_t& year, unsigned& month, unsigned& day) {
  days += 719468;
  const int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  const auto doe = static_cast<unsigned>(days - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  day = doy - (153 * mp + 2) / 5 + 1;
  month = mp < 10 ? mp + 3 : mp - 9;
  year = static_cast<int64_t>(yoe) + era * 400 + (month <= 2 ? 1 : 0);
}

int64_t floorDiv(int64_t a, int64_t b) {
  return a / b - ((a % b != 0) && ((a < 0) != (b < 0)) ? 1 : 0);
}

[[noreturn]] void outOfPythonRange(const Field& field, const std::string& value, const char* what) {
  throw InvalidArgument("column " + field.name + ": " + value + " is outside " + what +
                        "'s range (years 1 to 9999)");
}

py::object dateObject(const Field& field, int64_t days) {
  int64_t year = 0;
  unsigned month = 0, day = 0;
  civilFromDays(days, year, month, day);
  if (year < 1 || year > 9999)
    outOfPythonRange(field, dateText(static_cast<int32_t>(days)), "datetime.date");
  return py::reinterpret_steal<py::object>(
      PyDate_FromDate(static_cast<int>(year), static_cast<int>(month), static_cast<int>(day)));
}

/// datetime.time; nanoseconds are cut to microseconds (Python's resolution).
py::object timeObject(int64_t value, TimeUnit unit) {
  const int64_t perSecond = unitsPerSecond(unit);
  const int64_t seconds = floorDiv(value, perSecond);
  const int64_t micros = (value - seconds * perSecond) * 1'000'000 / perSecond;
  return py::reinterpret_steal<py::object>(
      PyTime_FromTime(static_cast<int>(seconds / 3600 % 24), static_cast<int>(seconds / 60 % 60),
                      static_cast<int>(seconds % 60), static_cast<int>(micros)));
}

py::object timestampObject(const Field& field, const DataType& type, int64_t value) {
  const int64_t perSecond = unitsPerSecond(type.unit);
  const int64_t seconds = floorDiv(value, perSecond);
  const int64_t micros = (value - seconds * perSecond) * 1'000'000 / perSecond;
  const int64_t days = floorDiv(seconds, 86400);
  const int64_t secondOfDay = seconds - days * 86400;
  int64_t year = 0;
  unsigned month = 0, day = 0;
  civilFromDays(days, year, month, day);
  if (year < 1 || year > 9999) {
    outOfPythonRange(field, timestampText(value, type.unit, type.utcAdjusted), "datetime.datetime");
  }
  PyObject* zone = type.utcAdjusted ? PyDateTime_TimeZone_UTC : Py_None;
  return py::reinterpret_steal<py::object>(PyDateTimeAPI->DateTime_FromDateAndTime(
      static_cast<int>(year), static_cast<int>(month), static_cast<int>(day),
      static_cast<int>(secondOfDay / 3600), static_cast<int>(secondOfDay / 60 % 60),
      static_cast<int>(secondOfDay % 60), static_cast<int>(micros), zone,
      PyDateTimeAPI->DateTimeType));
}

py::object checked(PyObject* object) {
  if (object == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(object);
}

/// The Python value of row `row` of `array`, a column (or list elements) of `type`.
py::object pythonValue(const Field& field, const DataType& type, const ArrowArray* array,
                       int64_t row) {
  if (type.kind == TypeKind::kNull || !validAt(array, row)) return py::none();
  switch (type.kind) {
    case TypeKind::kNull:
      return py::none();
    case TypeKind::kBoolean: {
      const auto* bits = static_cast<const uint8_t*>(array->buffers[1]);
      return py::bool_(((bits[row / 8] >> (row % 8)) & 1) != 0);
    }
    case TypeKind::kInt32:
      return checked(PyLong_FromLong(valueAt<int32_t>(array, row)));
    case TypeKind::kInt64:
      return checked(PyLong_FromLongLong(valueAt<int64_t>(array, row)));
    case TypeKind::kUInt64:
      return checked(PyLong_FromUnsignedLongLong(valueAt<uint64_t>(array, row)));
    case TypeKind::kDouble:
      return checked(PyFloat_FromDouble(valueAt<double>(array, row)));
    case TypeKind::kDecimal: {
      const std::string text = decimalText(valueAt<__int128>(array, row), type.scale);
      return checked(PyObject_CallOneArg(gDecimal, py::str(text.data(), text.size()).ptr()));
    }
    case TypeKind::kString:
    case TypeKind::kBinary: {
      const auto* offsets = static_cast<const int64_t*>(array->buffers[1]);
      const char* data = static_cast<const char*>(array->buffers[2]) + offsets[row];
      const auto size = static_cast<Py_ssize_t>(offsets[row + 1] - offsets[row]);
      return type.kind == TypeKind::kString ? checked(PyUnicode_DecodeUTF8(data, size, "strict"))
                                            : checked(PyBytes_FromStringAndSize(data, size));
    }
    case TypeKind::kDate:
      return dateObject(field, valueAt<int32_t>(array, row));
    case TypeKind::kTime:
      return timeObject(type.unit == TimeUnit::kMillis ? valueAt<int32_t>(array, row)
                                                       : valueAt<int64_t>(array, row),
                        type.unit);
    case TypeKind::kTimestamp:
      return timestampObject(field, type, valueAt<int64_t>(array, row));
    case TypeKind::kUuid: {
      const char* bytes = static_cast<const char*>(array->buffers[1]) + row * 16;
      py::dict keywords;
      keywords["bytes"] = py::bytes(bytes, 16);
      return checked(PyObject_Call(gUuid, py::tuple().ptr(), keywords.ptr()));
    }
    case TypeKind::kList: {
      const auto* offsets = static_cast<const int64_t*>(array->buffers[1]);
      const DataType element = elementType(type);
      py::list out(static_cast<size_t>(offsets[row + 1] - offsets[row]));
      for (int64_t i = offsets[row]; i < offsets[row + 1]; ++i) {
        out[static_cast<size_t>(i - offsets[row])] =
            pythonValue(field, element, array->children[0], i);
      }
      return out;
    }
  }
  return py::none();
}

int64_t totalRows(const ExportedBatches& batches) {
  int64_t rows = 0;
  for (const auto& batch : batches) rows += batch->array.length;
  return rows;
}

int64_t nullCount(const ExportedBatches& batches, size_t column) {
  int64_t nulls = 0;
  for (const auto& batch : batches) nulls += batch->array.children[column]->null_count;
  return nulls;
}

/// A numpy array of `T` over column `column`: the buffer itself for one batch,
/// else the batches' values copied into one array.
template <typename T>
py::array numericColumn(const ExportedBatches& batches, size_t column) {
  if (batches.size() == 1) {
    const ArrowArray* child = batches[0]->array.children[column];
    // The capsule holds the batch: the view's base keeps the buffer alive.
    auto* owner = new std::shared_ptr<ExportedBatch>(batches[0]);
    py::capsule base(owner,
                     [](void* p) { delete static_cast<std::shared_ptr<ExportedBatch>*>(p); });
    return py::array_t<T>({child->length}, {static_cast<py::ssize_t>(sizeof(T))},
                          static_cast<const T*>(child->buffers[1]), base);
  }
  py::array_t<T> out(totalRows(batches));
  T* target = out.mutable_data();
  for (const auto& batch : batches) {
    const ArrowArray* child = batch->array.children[column];
    if (child->length > 0) std::memcpy(target, child->buffers[1], child->length * sizeof(T));
    target += child->length;
  }
  return out;
}

/// A float64 array of the column's values (NaN for null), each made a double by `toDouble`.
template <typename ToDouble>
py::array doubleColumn(const ExportedBatches& batches, size_t column, ToDouble toDouble) {
  py::array_t<double> out(totalRows(batches));
  double* target = out.mutable_data();
  for (const auto& batch : batches) {
    const ArrowArray* child = batch->array.children[column];
    for (int64_t row = 0; row < child->length; ++row) {
      *target++ =
          validAt(child, row) ? toDouble(child, row) : std::numeric_limits<double>::quiet_NaN();
    }
  }
  return out;
}

/// The double nearest to an unscaled decimal: a quotient of two exact doubles
/// is correctly rounded; wider values go through their text (strtod rounds too).
double decimalToDouble(__int128 unscaled, int32_t scale) {
  static constexpr double kPowers[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                       1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                       1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  constexpr __int128 kExact = __int128{1} << 53;
  if (unscaled > -kExact && unscaled < kExact && scale >= 0 && scale <= 22) {
    return static_cast<double>(static_cast<int64_t>(unscaled)) / kPowers[scale];
  }
  return std::strtod(decimalText(unscaled, scale).c_str(), nullptr);
}

int64_t nanosOrThrow(const Field& field, const DataType& type, int64_t value, int64_t factor) {
  int64_t nanos = 0;
  if (__builtin_mul_overflow(value, factor, &nanos) ||
      nanos == std::numeric_limits<int64_t>::min()) {
    const std::string text = type.kind == TypeKind::kDate
                                 ? dateText(static_cast<int32_t>(value))
                                 : timestampText(value, type.unit, type.utcAdjusted);
    throw InvalidArgument("column " + field.name + ": " + text +
                          " is outside pandas' datetime64[ns] range (1677-09-21 to 2262-04-11)");
  }
  return nanos;
}

/// int64 nanoseconds since the epoch of a date or timestamp column, NaT (int64's
/// minimum) for null.
py::array datetimeColumn(const Field& field, const ExportedBatches& batches, size_t column) {
  const DataType& type = field.type;
  const int64_t factor = type.kind == TypeKind::kDate ? int64_t{86'400'000'000'000}
                                                      : 1'000'000'000 / unitsPerSecond(type.unit);
  py::array_t<int64_t> out(totalRows(batches));
  int64_t* target = out.mutable_data();
  for (const auto& batch : batches) {
    const ArrowArray* child = batch->array.children[column];
    for (int64_t row = 0; row < child->length; ++row) {
      if (!validAt(child, row)) {
        *target++ = std::numeric_limits<int64_t>::min();
        continue;
      }
      const int64_t value = type.kind == TypeKind::kDate ? valueAt<int32_t>(child, row)
                                                         : valueAt<int64_t>(child, row);
      *target++ = nanosOrThrow(field, type, value, factor);
    }
  }
  return out;
}

/// An integer column: its own type without nulls, float64 with NaN with them.
template <typename T>
py::array integerColumn(const ExportedBatches& batches, size_t column, bool nulls) {
  if (!nulls) return numericColumn<T>(batches, column);
  return doubleColumn(batches, column, [](const ArrowArray* a, int64_t r) {
    return static_cast<double>(valueAt<T>(a, r));
  });
}

py::list objectColumn(const Field& field, const ExportedBatches& batches, size_t column) {
  py::list out(static_cast<size_t>(totalRows(batches)));
  size_t index = 0;
  for (const auto& batch : batches) {
    const ArrowArray* child = batch->array.children[column];
    for (int64_t row = 0; row < child->length; ++row)
      out[index++] = pythonValue(field, field.type, child, row);
  }
  return out;
}

py::tuple pandasColumn(const Field& field, const ExportedBatches& batches, size_t column) {
  const bool nulls = nullCount(batches, column) > 0;
  auto form = [&](const char* name, py::object values) {
    return py::make_tuple(field.name, name, values);
  };
  switch (field.type.kind) {
    case TypeKind::kInt32:
      return form("array", integerColumn<int32_t>(batches, column, nulls));
    case TypeKind::kInt64:
      return form("array", integerColumn<int64_t>(batches, column, nulls));
    case TypeKind::kUInt64:
      return form("array", integerColumn<uint64_t>(batches, column, nulls));
    case TypeKind::kDouble:
      if (!nulls) return form("array", numericColumn<double>(batches, column));
      return form("array", doubleColumn(batches, column, [](const ArrowArray* a, int64_t r) {
                    return valueAt<double>(a, r);
                  }));
    case TypeKind::kDecimal: {
      const int32_t scale = field.type.scale;
      return form("array", doubleColumn(batches, column, [scale](const ArrowArray* a, int64_t r) {
                    return decimalToDouble(valueAt<__int128>(a, r), scale);
                  }));
    }
    case TypeKind::kBoolean: {
      if (nulls) return form("object", objectColumn(field, batches, column));
      py::array_t<bool> out(totalRows(batches));
      bool* target = out.mutable_data();
      for (const auto& batch : batches) {
        const ArrowArray* child = batch->array.children[column];
        const auto* bits = static_cast<const uint8_t*>(child->buffers[1]);
        for (int64_t row = 0; row < child->length; ++row)
          *target++ = ((bits[row / 8] >> (row % 8)) & 1) != 0;
      }
      return form("array", std::move(out));
    }
    case TypeKind::kDate:
      return form("datetime64[ns]", datetimeColumn(field, batches, column));
    case TypeKind::kTimestamp:
      return form(field.type.utcAdjusted ? "datetime64[ns, UTC]" : "datetime64[ns]",
                  datetimeColumn(field, batches, column));
    case TypeKind::kNull:
    case TypeKind::kString:
    case TypeKind::kBinary:
    case TypeKind::kTime:
    case TypeKind::kUuid:
    case TypeKind::kList:
      break;
  }
  return form("object", objectColumn(field, batches, column));
}

}  // namespace

ExportedBatch::~ExportedBatch() {
  if (array.release != nullptr) array.release(&array);
}

ExportedBatches exportBatches(const std::vector<Batch>& batches) {
  ExportedBatches out;
  out.reserve(batches.size());
  for (const Batch& batch : batches) {
    auto exported = std::make_shared<ExportedBatch>();
    exportArrowArray(batch, &exported->array);
    out.push_back(std::move(exported));
  }
  return out;
}

py::list fetchRows(const Schema& schema, const ExportedBatches& batches) {
  py::list rows;
  for (const auto& batch : batches) {
    for (int64_t row = 0; row < batch->array.length; ++row) {
      py::tuple values(schema.size());
      for (size_t c = 0; c < schema.size(); ++c) {
        values[c] = pythonValue(schema[c], schema[c].type, batch->array.children[c], row);
      }
      rows.append(std::move(values));
    }
  }
  return rows;
}

py::list pandasColumns(const Schema& schema, const ExportedBatches& batches) {
  py::list columns;
  for (size_t c = 0; c < schema.size(); ++c) columns.append(pandasColumn(schema[c], batches, c));
  return columns;
}

void initConversions() {
  PyDateTime_IMPORT;
  if (PyDateTimeAPI == nullptr) throw py::error_already_set();
  gDecimal = py::object(py::module_::import("decimal").attr("Decimal")).release().ptr();
  gUuid = py::object(py::module_::import("uuid").attr("UUID")).release().ptr();
}

}  // namespace quarry::python

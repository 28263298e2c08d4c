// The `quarry._quarry` extension module: quarry's Session and Result for Python
// (python/quarry/__init__.py is the package users import). Query text, files and
// parameters go in; results come out as Python values (fetchall), a pandas
// DataFrame (to_pandas, assembled by the package from pandasColumns) or an Arrow
// C stream in a PyCapsule (__arrow_c_stream__, the Arrow PyCapsule protocol).
//
// The GIL is released while quarry works: preparing a query (its files listed,
// footers read) and computing its batches. Batches are computed on a worker
// thread while the calling thread waits in slices of kSignalCheck, checking for
// signals between them: Ctrl-C cancels the Result, waits for the worker to stop
// at its next batch and raises KeyboardInterrupt.
#include <pybind11/pybind11.h>

#include <chrono>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "arrow_python.h"
#include "quarry/arrow.h"
#include "quarry/quarry.h"

namespace py = pybind11;

namespace quarry::python {

namespace {

constexpr auto kSignalCheck = std::chrono::milliseconds(20);

/// A failure the module reports as quarry.Error with this message.
class ModuleError : public std::runtime_error {
 public:
  explicit ModuleError(const std::string& message) : std::runtime_error(message) {}
};

/// Computes every batch of `result` on a worker thread, the GIL released;
/// returns them, raises KeyboardInterrupt (the Result cancelled) on a signal,
/// and rethrows the engine's error.
std::vector<Batch> collectBatches(Result& result) {
  std::vector<Batch> batches;
  std::exception_ptr error;
  std::mutex mutex;
  std::condition_variable finished;
  bool done = false;
  bool interrupted = false;
  {
    py::gil_scoped_release release;
    std::thread worker([&] {
      try {
        while (std::optional<Batch> batch = result.next()) batches.push_back(std::move(*batch));
      } catch (...) {
        error = std::current_exception();
      }
      const std::lock_guard<std::mutex> lock(mutex);
      done = true;
      finished.notify_all();
    });
    std::unique_lock<std::mutex> lock(mutex);
    while (!finished.wait_for(lock, kSignalCheck, [&] { return done; })) {
      if (interrupted) continue;  // cancelled: wait for the worker to stop
      lock.unlock();
      {
        py::gil_scoped_acquire acquire;
        // Sets KeyboardInterrupt (or what a Python signal handler raised) on failure.
        interrupted = PyErr_CheckSignals() != 0;
      }
      if (interrupted) result.cancel();
      lock.lock();
    }
    lock.unlock();
    worker.join();
  }
  if (interrupted) throw py::error_already_set();
  if (error) std::rethrow_exception(error);
  return batches;
}

Parameters toParameters(const py::kwargs& kwargs) {
  Parameters out;
  for (const auto& [key, value] : kwargs) {
    const std::string name = py::cast<std::string>(key);
    if (value.is_none()) {
      out.emplace_back(name, nullptr);
    } else if (py::isinstance<py::bool_>(value)) {
      out.emplace_back(name, value.cast<bool>());
    } else if (py::isinstance<py::int_>(value)) {
      int overflow = 0;
      const long long number = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
      if (overflow != 0) {
        throw ModuleError("parameter ?" + name + ": " + py::str(value).cast<std::string>() +
                          " does not fit a 64-bit integer");
      }
      out.emplace_back(name, number);
    } else if (py::isinstance<py::float_>(value)) {
      out.emplace_back(name, value.cast<double>());
    } else if (py::isinstance<py::str>(value)) {
      out.emplace_back(name, value.cast<std::string>());
    } else {
      throw ModuleError("parameter ?" + name + ": a " +
                        py::str(value.get_type().attr("__name__")).cast<std::string>() +
                        " cannot be bound (None, bool, int, float or str can): " +
                        py::repr(value).cast<std::string>());
    }
  }
  return out;
}

py::list schemaList(const Schema& schema) {
  py::list out;
  for (const Field& field : schema) out.append(py::make_tuple(field.name, field.type.toString()));
  return out;
}

/// Returns a capsule named `name` (the PyCapsule protocol's) that owns `object`,
/// an exported ArrowArrayStream or ArrowSchema: its destructor releases the
/// object unless a consumer moved it out (leaving release null), then frees it.
template <typename T>
py::object ownedCapsule(std::unique_ptr<T> object, const char* name) {
  PyObject* capsule = PyCapsule_New(object.get(), name, [](PyObject* self) {
    auto* owned = static_cast<T*>(PyCapsule_GetPointer(self, PyCapsule_GetName(self)));
    if (owned == nullptr) return;
    if (owned->release != nullptr) owned->release(owned);
    delete owned;
  });
  if (capsule == nullptr) {
    object->release(object.get());
    throw py::error_already_set();
  }
  object.release();
  return py::reinterpret_steal<py::object>(capsule);
}

/// A Result for Python: read once, by fetchall, to_pandas or __arrow_c_stream__.
class PyResult {
 public:
  PyResult(Result result, std::string query)
      : result_(std::move(result)), schema_(result_->schema()), query_(std::move(query)) {}

  const Schema& schema() const { return schema_; }
  const std::string& query() const { return query_; }

  /// Returns the Result for `reader`, which reads it to its end; throws when
  /// another reader had it.
  Result& take(const char* reader) {
    if (!readBy_.empty()) {
      throw ModuleError("the result was already read by " + readBy_ +
                        "; run the query again to read it with " + reader);
    }
    readBy_ = reader;
    return *result_;
  }

  ExportedBatches exported(const char* reader) {
    std::vector<Batch> batches = collectBatches(take(reader));
    return exportBatches(batches);
  }

  /// The PyCapsule protocol's requested_schema is honoured as far as dictionary
  /// encoding goes: a requested schema none of whose columns is dictionary-encoded
  /// (as __arrow_c_schema__ gives it) gets every column in the plain form.
  py::object arrowStream(const py::object& requestedSchema) {
    ArrowStreamOptions options;
    if (!requestedSchema.is_none()) {
      const auto* requested = static_cast<const ArrowSchema*>(
          PyCapsule_GetPointer(requestedSchema.ptr(), "arrow_schema"));
      if (requested == nullptr) throw py::error_already_set();
      options.dictionaries = false;
      for (int64_t c = 0; c < requested->n_children; ++c)
        options.dictionaries |= requested->children[c]->dictionary != nullptr;
    }
    // The stream owns the Result: it hands the warnings back when it ends, maybe
    // on a consumer's thread without the GIL (so into plain C++ state).
    options.onWarnings = [sink = streamWarnings_](const std::vector<std::string>& lines) {
      std::lock_guard<std::mutex> lock(sink->mutex);
      sink->lines = lines;
    };
    auto stream = std::make_unique<ArrowArrayStream>();
    exportArrowStream(std::move(take("__arrow_c_stream__")), stream.get(), options);
    result_.reset();
    return ownedCapsule(std::move(stream), "arrow_array_stream");
  }

  py::object arrowSchema() const {
    auto schema = std::make_unique<ArrowSchema>();
    exportArrowSchema(schema_, schema.get());
    return ownedCapsule(std::move(schema), "arrow_schema");
  }

  void cancel() {
    if (result_) result_->cancel();
  }

  /// Result::warnings() once fetchall(), to_pandas() or an Arrow stream has read
  /// the rows (the stream's once it has given its last batch).
  py::list warnings() const {
    py::list out;
    if (result_) {
      for (const std::string& line : result_->warnings()) out.append(line);
      return out;
    }
    std::lock_guard<std::mutex> lock(streamWarnings_->mutex);
    for (const std::string& line : streamWarnings_->lines) out.append(line);
    return out;
  }

 private:
  /// The warnings an Arrow stream reports at its end.
  struct StreamWarnings {
    std::mutex mutex;
    std::vector<std::string> lines;
  };

  std::optional<Result> result_;
  std::shared_ptr<StreamWarnings> streamWarnings_ = std::make_shared<StreamWarnings>();
  Schema schema_;
  std::string query_;
  std::string readBy_;
};

/// Prepares and starts `text` with the GIL released; a QueryError is shown with
/// the query line and a caret.
PyResult execute(const Session& session, const std::string& text, const py::kwargs& kwargs) {
  const Parameters parameters = toParameters(kwargs);
  try {
    py::gil_scoped_release release;
    return PyResult(session.prepare(text, parameters).execute(), text);
  } catch (const QueryError& e) {
    std::string message = queryErrorText(e, text);
    while (!message.empty() && message.back() == '\n') message.pop_back();
    throw ModuleError(message);
  }
}

SessionOptions sessionOptions(int threads, const py::object& metadataCache,
                              int64_t lookupMaxRows) {
  SessionOptions options;
  options.threads = threads;
  if (lookupMaxRows < 1) throw ModuleError("lookup_max_rows must be at least 1");
  options.lookupMaxRows = static_cast<uint64_t>(lookupMaxRows);
  if (metadataCache.is_none() ||
      (py::isinstance<py::bool_>(metadataCache) && !metadataCache.cast<bool>())) {
    options.metadataCacheDirectory.clear();
  } else if (py::isinstance<py::bool_>(metadataCache)) {
    options.metadataCacheDirectory = defaultMetadataCacheDirectory();
  } else {
    options.metadataCacheDirectory = py::str(metadataCache).cast<std::string>();
  }
  return options;
}

/// The benchmark's two consumers (bench/python_export_vs_query.py), the GIL
/// released: Result::next() to the end, and the same rows through an Arrow
/// stream taken from its capsule as a C consumer takes it (get_next, release).
uint64_t nativeRowCount(PyResult& result) {
  Result& native = result.take("_native_row_count");
  py::gil_scoped_release release;
  uint64_t rows = 0;
  while (std::optional<Batch> batch = native.next()) rows += batch->rowCount();
  return rows;
}

uint64_t streamRowCount(const py::capsule& capsule) {
  if (std::string(capsule.name() == nullptr ? "" : capsule.name()) != "arrow_array_stream") {
    throw ModuleError("_stream_row_count takes an arrow_array_stream capsule");
  }
  auto* source = capsule.get_pointer<ArrowArrayStream>();
  if (source->release == nullptr) throw ModuleError("the capsule's stream was released already");
  ArrowArrayStream stream = *source;
  source->release = nullptr;  // moved out
  uint64_t rows = 0;
  std::string error;
  {
    py::gil_scoped_release release;
    while (true) {
      ArrowArray array{};
      if (stream.get_next(&stream, &array) != 0) {
        const char* message = stream.get_last_error(&stream);
        error = message != nullptr ? message : "get_next failed";
        break;
      }
      if (array.release == nullptr) break;
      rows += static_cast<uint64_t>(array.length);
      array.release(&array);
    }
    stream.release(&stream);
  }
  if (!error.empty()) throw ModuleError(error);
  return rows;
}

}  // namespace

}  // namespace quarry::python

PYBIND11_MODULE(_quarry, m) {
  using namespace quarry;
  using namespace quarry::python;
  m.doc() = "quarry's engine: sessions, queries and their results (import quarry, not this module)";
  initConversions();

  static py::exception<ModuleError> error(m, "Error", PyExc_Exception);
  error.attr("__module__") = "quarry";
  error.attr("__doc__") =
      "A failure of quarry: a query that does not parse or plan, a file missing, unreadable or "
      "corrupt, a value Python cannot hold. The message names the file, column and value.";
  py::register_exception_translator([](std::exception_ptr pending) {
    try {
      if (pending) std::rethrow_exception(pending);
    } catch (const ModuleError& e) {
      PyErr_SetString(error.ptr(), e.what());
    } catch (const quarry::Error& e) {
      PyErr_SetString(error.ptr(), e.what());
    } catch (const quarry::InvalidArgument& e) {
      PyErr_SetString(error.ptr(), e.what());
    }
  });

  py::class_<PyResult>(m, "Result")
      .def_property_readonly("columns",
                             [](const PyResult& r) {
                               py::list names;
                               for (const Field& field : r.schema()) names.append(field.name);
                               return names;
                             })
      .def_property_readonly("schema", [](const PyResult& r) { return schemaList(r.schema()); })
      .def_property_readonly("query", &PyResult::query)
      .def("fetchall",
           [](PyResult& r) {
             const ExportedBatches batches = r.exported("fetchall()");
             return fetchRows(r.schema(), batches);
           })
      .def("_pandas_columns",
           [](PyResult& r) {
             const ExportedBatches batches = r.exported("to_pandas()");
             return pandasColumns(r.schema(), batches);
           })
      .def("__arrow_c_stream__", &PyResult::arrowStream, py::arg("requested_schema") = py::none())
      .def("__arrow_c_schema__", &PyResult::arrowSchema)
      .def("cancel", &PyResult::cancel)
      .def("warnings", &PyResult::warnings);

  py::class_<Session>(m, "Session")
      .def(py::init([](int threads, const py::object& metadataCache, int64_t lookupMaxRows) {
             return Session(sessionOptions(threads, metadataCache, lookupMaxRows));
           }),
           py::arg("threads") = SessionOptions{}.threads, py::arg("metadata_cache") = py::none(),
           py::arg("lookup_max_rows") = static_cast<int64_t>(SessionOptions{}.lookupMaxRows))
      .def_property_readonly("threads", [](const Session& s) { return s.options().threads; })
      .def_property_readonly("lookup_max_rows",
                             [](const Session& s) { return s.options().lookupMaxRows; })
      .def_property_readonly("metadata_cache",
                             [](const Session& s) -> py::object {
                               if (s.options().metadataCacheDirectory.empty()) return py::none();
                               return py::str(s.options().metadataCacheDirectory);
                             })
      .def(
          "query",
          [](const Session& s, const std::string& text, const py::kwargs& kwargs) {
            return execute(s, text, kwargs);
          },
          py::arg("text"));

  m.def("_native_row_count", &nativeRowCount);
  m.def("_stream_row_count", &streamRowCount);
  m.attr("__version__") = QUARRY_VERSION_STRING;
}

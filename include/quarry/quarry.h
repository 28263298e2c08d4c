#pragma once

/// The query facade: sessions, prepared queries, results streaming batches,
/// value text, the version, the exceptions. The Parquet reader is quarry/parquet.h.
#include "quarry/batch.h"
#include "quarry/data_type.h"
#include "quarry/error.h"
#include "quarry/session.h"
#include "quarry/value_text.h"
#include "quarry/version.h"

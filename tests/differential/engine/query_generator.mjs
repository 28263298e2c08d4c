// Generates pairs of (quarry query, DuckDB SQL) that must give the same rows.
// Seeded and deterministic: the same seed gives the same corpus on every
// machine, so a failing query is named by its seed and index (`--only I`).
//
// Every query reads the typed files of dataset.mjs (as Parquet; with
// extra-0.parquet, of a differing schema, by name; or as their ORC twins) and is
// one pipeline:
//
//   FROM <files or glob> [WITH {...}]
//     [| WHERE p] [| EVAL e0 = x, ...] [| WHERE p over the EVALs]
//     [| EVAL e1 = split(s, "d") | MV_EXPAND e1]       (DuckDB: unnest, [NULL] for null or [])
//     [| DISSECT s "%{e2}d%{e3}" | GROK s "%{INT:e2:int}"] (DuckDB: strpos, regexp_extract)
//     [| LOOKUP JOIN "lookup.parquet" ON s_low]        (DuckDB: LEFT JOIN ... ON s_low = s_low)
//     then one tail:
//       rows    [| WHERE id range] | KEEP ... [| DROP ...] [| RENAME a AS b]  (a multiset)
//       top-n   | SORT keys..., id[, e1] | LIMIT n [| KEEP ...]     (ordered: id is unique,
//                                                                   with the MV_EXPAND piece)
//       stats   | STATS aggs                                       (one row)
//       grouped | STATS aggs BY g1[, g2] [| SORT g... | LIMIT n]   (a multiset; ordered
//                                                                   when sorted by all groups)
//       overflow | EVAL o = <int arithmetic that may overflow> | STATS MAX(o), ... [BY g]
//                                                                  (or STATS SUM(big)): both
//                                                                  engines fail, or agree
//   where a STATS may be followed by WHERE/EVAL/KEEP/DROP/RENAME over its columns
//   and a second STATS over them, before its SORT and LIMIT.
//
// A result is compared in order only when the sort keys make the order total;
// else it is compared as a multiset.
//
// The SQL is built command by command, each one a SELECT over the previous
// (`SELECT *, x AS e0 FROM (...) t`), so it reads as the pipeline does. The
// semantics it spells out are the engine's:
//   integer `/` truncates toward zero        -> DuckDB `//` (which truncates, checked)
//   any division by zero is null             -> CASE WHEN b = 0 THEN NULL ELSE a / b END
//   STATS columns: aggregates, then groups   -> SELECT aggs, groups ... GROUP BY groups
//   SORT's default null order (ASC -> NULLS LAST, DESC -> NULLS FIRST), written out
//   date_trunc keeps a DATE a DATE           -> CAST(date_trunc(...) AS DATE)
//   date_extract("part", x)                  -> date_part('part', x)
//   date_trunc(n unit, x), bucket(x, n unit) -> date_trunc('unit', x) for one calendar unit, else
//                                               time_bucket(INTERVAL n unit, x, 1970-01-01)
//   x + n unit, x - n unit                   -> x +/- INTERVAL n unit (a date's CAST back to DATE)
//   COUNT_DISTINCT(x)                        -> count(DISTINCT x)
//   MEDIAN(x), PERCENTILE(x, p) (exact, interpolated)
//                                            -> quantile_cont(CAST(x AS DOUBLE), 0.5 | p / 100)
//   MEDIAN_ABSOLUTE_DEVIATION(x)             -> mad(CAST(x AS DOUBLE))
//   STD_DEV(x), VARIANCE(x) (the population's) -> stddev_pop(x), var_pop(x)
//   WEIGHTED_AVG(x, w) (ES|QL's SUM(x * w) / SUM(w))
//                                            -> sum(CAST(x AS DOUBLE) * CAST(w AS DOUBLE)) / sum(CAST(w AS DOUBLE))
//   VALUES(x) (distinct, ascending)          -> list_sort(list(DISTINCT x) FILTER (WHERE x IS NOT NULL))
//   TOP(x, n, "asc"|"desc")                  -> list_slice(list_sort(list(x) FILTER (WHERE x IS NOT NULL),
//                                               'ASC'|'DESC'), 1, n)
//   x LIKE "a*b?" (ES|QL's wildcards)        -> x LIKE 'a%b_' ESCAPE '\' (sqlLikePattern:
//                                               % _ \ escaped, ES|QL's \* \? \\ unescaped)
//   x RLIKE "re" (anchored, . takes \n)      -> regexp_full_match(x, 're', 's')
//   sqrt(x), log(x), asin(x), ... (ES|QL's null for a domain error)
//                                            -> CASE WHEN <outside the domain> THEN NULL ELSE sqrt(x) ... END
//   pow(x, y), sinh(x), cosh(x) (null when not finite)
//                                            -> CASE WHEN isfinite(pow(x, y)) THEN pow(x, y) END
//   greatest(a, b) (null when one is null)   -> CASE WHEN a IS NULL OR b IS NULL THEN NULL ELSE greatest(a, b) END
//   signum(x) (a double; +-0 and NaN themselves) -> CAST(sign(x) AS DOUBLE), a double's zeros and NaN kept
//   floor(i) of an integer (the integer)     -> CAST(floor(i) AS INTEGER|BIGINT)
//   a transcendental math function's column compares within 1e-9 (`approx`) and
//   feeds no comparison, sort key, SUM or COUNT_DISTINCT
//   concat(a, b, ...) (null if any is null)  -> (a || b || ...), which propagates NULL
//                                               (DuckDB's concat treats NULL as '')
//   trim(x) (ES|QL's whitespace: Java's)     -> trim(x, '<JAVA_WHITESPACE>'); ltrim, rtrim alike
//   left(x, n), right(x, n) ('' for n < 0)   -> left(x, max(n, 0)), right(x, max(n, 0))
//   space(n)                                 -> repeat(' ', n)
//   locate(x, sub, start)                    -> strpos of substring(x, start), shifted back
//   byte_length(x)                           -> strlen(x)
//   md5(x), sha1(x), sha256(x)               -> md5(x), sha1(x), sha256(x) (lowercase hex in both)
//   mv_count / mv_first / mv_last / mv_min / mv_max (split(x, "d"))
//                                            -> len / [1] / [-1] / list_min / list_max
//                                               (string_split(x, 'd'))
//   mv_concat(l, sep) of split lists shaped by mv_sort(l[, "desc"]), mv_sort(mv_dedupe(l)),
//   mv_append(l1, l2)                        -> array_to_string(list_sort / list_reverse_sort /
//                                               list_sort(list_distinct) / list_concat, sep)
//                                               (list_concat of two NULLs is [], MV_APPEND's null)
//   to_integer(x), to_long(x) of a double (Java's Math.round; null for NaN and out of range)
//                                            -> CASE WHEN isnan(x) OR x > max OR x < min THEN NULL
//                                               ELSE CAST(<floor(x), plus 1 when x - floor(x) >= 0.5> AS INTEGER) END
//   to_integer(d), to_long(d) of a decimal   -> floor(d + 0.5), NULL outside the type's range
//   to_integer / to_long / to_double of a string (Java's parseInt, else parseDouble; null if no number)
//                                            -> TRY_CAST(regexp_replace(s, '[fFdD]$', '') AS DOUBLE)
//                                               (Java's f / d suffix dropped), NULL unless finite, then as a double
//   to_long(to_unsigned_long(x)) (truncated, null below 0)
//                                            -> CASE WHEN trunc(x) >= 0 THEN CAST(trunc(x) AS BIGINT) END
//   to_long(t) of a date or timestamp (milliseconds)
//                                            -> epoch_us(t) // 1000 (the data's instants are after 1970)
//   to_string(x) of numbers, booleans        -> CAST(x AS VARCHAR); a double only in [0.001, 1e7), where
//                                               Java's Double.toString and DuckDB's text agree
//   to_string(t) of a date or timestamp (ES|QL's ISO text)
//                                            -> strftime(t, '%Y-%m-%dT%H:%M:%S.') || the fraction (3 to 6
//                                               digits, trailing zeros dropped) || 'Z' for a UTC instant
//   to_boolean(s), to_boolean(n)             -> lower(s) = 'true' (NULL kept), n <> 0
//   x::long, x::int, x::double, x::string, x::boolean
//                                            -> as the function the cast calls
//   date_format("pattern", t)                -> strftime(t, <the pattern's strftime letters>)
//   to_long(date_parse(P, date_format(P, t))) -> t truncated to P's finest field, in milliseconds
//   date_diff(unit, a, b) (whole units elapsed, ChronoUnit.between; int32, NULL outside it)
//                                            -> (epoch_us(b) - epoch_us(a)) // unit for fixed units; months
//                                               as Java's LocalDate.until: b's day moved a day toward a when
//                                               its time of day has not reached a's, then
//                                               ((year * 12 + month - 1) * 32 + day) differences // 32
//
// Output columns are named (`name =`), except some aggregates that are one call
// of a column or `*` (`MAX(i32)`): their column is named by the text as written.

import { createHash } from 'node:crypto';

import { COLUMNS, INT64_MAX, INT64_MIN, kExtraRows, kTypedRows, LONG_ENDINGS, LONG_UNIT, LOW_STRINGS,
  ORC_COLUMNS, UNION_COLUMNS } from './dataset.mjs';

/// A small, fast, seedable generator (mulberry32); `next()` is in [0, 1).
export class Random {
  constructor(seed) {
    this.state = seed >>> 0;
  }
  next() {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /// An integer in [lo, hi].
  int(lo, hi) {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  chance(p) {
    return this.next() < p;
  }
  pick(items) {
    return items[Math.floor(this.next() * items.length)];
  }
  /// `k` distinct items in random order.
  sample(items, k) {
    const copy = [...items];
    const out = [];
    while (out.length < k && copy.length > 0) out.push(copy.splice(this.int(0, copy.length - 1), 1)[0]);
    return out;
  }
  /// Picks by weight from [[weight, value], ...].
  weighted(choices) {
    const total = choices.reduce((a, [w]) => a + w, 0);
    let x = this.next() * total;
    for (const [w, v] of choices) {
      if ((x -= w) < 0) return v;
    }
    return choices[choices.length - 1][1];
  }
}

// ---- Text of both languages -----------------------------------------------

// REPLACE's cases: [regex, replacement in Java's syntax].
const kReplaceCases = [['[aeiou]', '*'], ['(.)(.)', '$2$1'], ['^(.)', '<$1>'], ['[0-9]+', '#'],
                       ['a|b', ''], ['.$', '[$0]'], ['\u00e9|\u00fc', 'e']];
// Whitespace as ES|QL's TRIM, LTRIM and RTRIM take it (Java's Character.isWhitespace),
// spelled out for DuckDB's trim(x, characters), whose trim(x) takes spaces only.
const JAVA_WHITESPACE = '\t\n\u000b\f\r\u001c\u001d\u001e\u001f \u1680\u2000\u2001\u2002\u2003\u2004\u2005' +
  '\u2006\u2008\u2009\u200a\u2028\u2029\u205f\u3000';
// What TRIM's arguments are padded with: whitespace, and characters that are not
// (U+00A0 and U+202F, the no-break spaces Java leaves, and U+0085).
const TRIM_PADS = ['', ' ', '  ', '\t', '\n ', '\r\n', '\u3000', '\u2003 ', '\u001f', '\u000b', '\u00a0',
  ' \u202f', '\u0085', 'x '];
const isJavaWhitespace = (ch) => JAVA_WHITESPACE.includes(ch);
/// `text` trimmed as ES|QL trims it: leading and / or trailing whitespace.
function javaTrim(text, leading, trailing) {
  const chars = Array.from(text);
  let from = 0;
  let to = chars.length;
  while (leading && from < to && isJavaWhitespace(chars[from])) from++;
  while (trailing && to > from && isJavaWhitespace(chars[to - 1])) to--;
  return chars.slice(from, to).join('');
}
// Literals joined by CONCAT, and SPLIT's delimiters (one byte, ES|QL's rule).
const CONCAT_PIECES = ['-', ' ', '', '日', '😀', 'x"y', "it's", 'a\\b'];
const SPLIT_DELIMITERS = ['a', 'e', 't', '_', '%', '*', ' '];
const quarryString = (s) => `"${s.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
/// quarryString with every character of the Basic Multilingual Plane past ASCII
/// written as the lexer's \uXXXX escape (a 4-byte character stays as it is: the
/// lexer refuses surrogates).
const quarryStringEscaped = (s) => quarryString(s).replace(/[\u0080-\uffff]/gu,
    (ch) => `\\u${ch.codePointAt(0).toString(16).padStart(4, '0')}`);
/// quarryStringEscaped with control characters escaped as well (\uXXXX).
const quarryStringAllEscaped = (s) => quarryStringEscaped(s).replace(/[\u0000-\u001f]/gu,
    (ch) => `\\u${ch.codePointAt(0).toString(16).padStart(4, '0')}`);
/// A column name as quarry reads it: backquoted unless a bare identifier
/// (`COUNT(*)`, the name of an unnamed aggregate, needs the quotes).
const quarryName = (n) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(n) ? n : `\`${n.replaceAll('`', '``')}\``);
const sqlString = (s) => `'${s.replaceAll("'", "''")}'`;
const sqlName = (n) => `"${n}"`;
const pad = (n, w = 2) => String(n).padStart(w, '0');

/// An expression in both languages, with the engine kind of its value
/// (int32, int64, uint64, double, decimal, string, binary, boolean, date,
/// timestamp, time, uuid) and, for decimals, the scale.
const expr = (q, s, kind, extra = {}) => ({ q, s, kind, ...extra });

const isInteger = (k) => k === 'int32' || k === 'int64';
const isNumeric = (k) => isInteger(k) || k === 'double' || k === 'decimal';
// Kinds a literal can be written for (binary, time and uuid have none).
const LITERAL_KINDS = ['int32', 'int64', 'uint64', 'double', 'decimal', 'string', 'boolean', 'date',
  'timestamp'];
const ORDERABLE = ['int32', 'int64', 'uint64', 'double', 'decimal', 'string', 'boolean', 'date',
  'timestamp', 'time'];

// ---- Literals ----------------------------------------------------------------

function decimalText(rng, intDigits, scale) {
  const whole = rng.int(0, 10 ** Math.min(intDigits, 15) - 1);
  const digits = rng.int(0, scale);
  let fraction = '';
  for (let i = 0; i < digits; i++) fraction += rng.int(0, 9);
  const sign = rng.chance(0.4) ? '-' : '';
  return fraction ? `${sign}${whole}.${fraction}` : `${sign}${whole}`;
}

function dateText(rng) {
  const year = rng.int(2015, 2025);
  return `${year}-${pad(rng.int(1, 12))}-${pad(rng.int(1, 28))}`;
}

/// A literal comparable with a column of `col` (a COLUMNS entry or a derived
/// one); null when the kind has no literal form worth writing.
function literalFor(rng, col) {
  const same = (q, s = q) => expr(q, s, col.kind);
  switch (col.kind) {
    case 'int32': {
      const v = rng.weighted([[6, () => rng.int(-100000, 100000)], [1, () => 0],
        [2, () => rng.int(-50, 50)]])();
      return same(String(v));
    }
    case 'int64': {
      if (col.extreme) {
        // The extremes and their neighbours. -2^63 is written as quarry and
        // DuckDB parse it: the negation of 2^63, a literal neither holds in int64.
        const v = rng.pick([INT64_MAX, INT64_MAX - 1n, INT64_MIN, INT64_MIN + 1n, 2n ** 62n, -(2n ** 62n),
          0n, 1n, -1n, 4611686018427387904n + 12345n]);
        return same(String(v));
      }
      const v = rng.chance(0.2) ? rng.int(-1000, 1000)
                                : Math.round((rng.next() * 2 - 1) * 1e12);
      return same(String(v));
    }
    case 'uint64': {
      const v = rng.chance(0.5) ? BigInt(rng.int(0, 1000))
                                : BigInt(Math.floor(rng.next() * 2 ** 52)) * 4096n + BigInt(rng.int(0, 4095));
      return same(String(v));
    }
    case 'double': {
      const form = rng.int(0, 4);
      if (form === 0) return same('0');
      if (form === 1) {
        const m = (rng.next() * 2 - 1) * 9;
        const text = `${m.toFixed(3)}e${rng.pick([2, 3, 5, 11, -9])}`;
        return same(text);
      }
      return same(decimalText(rng, 6, 3));
    }
    case 'decimal': {
      const intDigits = { 2: 4, 4: 6, 10: 12 }[col.scale] ?? 4;
      return same(decimalText(rng, intDigits, col.scale));
    }
    case 'string': {
      let text = '';
      if (col.values) {
        text = rng.pick(col.values);
      } else {
        for (let i = rng.int(1, 3); i > 0; i--) text += rng.pick([...'0123456789abcdef']);
      }
      return same(rng.chance(0.15) ? quarryStringEscaped(text) : quarryString(text), sqlString(text));
    }
    case 'boolean': {
      const v = rng.chance(0.5) ? 'TRUE' : 'FALSE';
      return same(v);
    }
    case 'date': {
      const d = dateText(rng);
      return same(`DATE '${d}'`);
    }
    case 'timestamp': {
      const t = `${dateText(rng)} ${pad(rng.int(0, 23))}:${pad(rng.int(0, 59))}:${pad(rng.int(0, 59))}`;
      const frac = rng.chance(0.3) ? `.${pad(rng.int(0, 999999), 6)}` : '';
      return same(`TIMESTAMP '${t}${frac}'`);
    }
    default:
      return null;
  }
}

// ---- Expressions ------------------------------------------------------------

const colRef = (c) => expr(quarryName(c.name), sqlName(c.name), c.kind,
    { scale: c.scale, values: c.values, extreme: c.extreme, approx: c.approx });

/// ES|QL's LIKE pattern as DuckDB's: `*` and `?` become `%` and `_`, ES|QL's
/// escapes (`\*`, `\?`, `\\`) the character alone, and `%`, `_` and `\` (themselves
/// in ES|QL) are escaped for DuckDB's `LIKE ... ESCAPE '\'`.
export function sqlLikePattern(pattern) {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    let c = pattern[i];
    if (c === '*') {
      out += '%';
      continue;
    }
    if (c === '?') {
      out += '_';
      continue;
    }
    if (c === '\\') c = pattern[++i];
    out += c === '%' || c === '_' || c === '\\' ? `\\${c}` : c;
  }
  return out;
}

/// `text` as an ES|QL LIKE pattern matching it alone: its `*`, `?` and `\` escaped.
export const esqlLikeLiteral = (text) => text.replace(/[*?\\]/g, (c) => `\\${c}`);

/// A LIKE in both languages: `q` and `s` the operand, `pattern` ES|QL's.
export const likeSql = (s, negated, pattern) =>
  `(${s} ${negated}LIKE ${sqlString(sqlLikePattern(pattern))} ESCAPE '\\')`;

/// A LIKE pattern (ES|QL's: `*` any run, `?` one character, `\` escaping either
/// or itself) made from one of `values` (the strings an expression can give) or
/// from random characters: some characters become `?`, some runs `*`, `*` added
/// at either end, sometimes a character changed so that it matches less; for
/// s_utf8, sometimes a pattern for its long strings (a 13-byte unit repeated).
/// A `*`, `?` or `\` of the data is escaped (mostly; a `*` or `?` left as it is
/// is a wildcard); SQL's `%` and `_` are ordinary characters, in the data and in
/// the alphabet, so that a pattern written with SQL's wildcards meets them.
export function likePattern(rng, values) {
  const alphabet = [...'abet0129%_*?\\', 'ñ', 'ú', '日', '本', '😀', '𝄞', '€'];
  const literal = (ch) => (/[*?\\]/.test(ch) && (ch === '\\' || rng.chance(0.8)) ? `\\${ch}` : ch);
  let chars;
  if (values.includes('日本語') && rng.chance(0.15)) {
    const long = `${LONG_UNIT.repeat(rng.int(1, 3))}${rng.pick(['*', '?*', '*?'])}${esqlLikeLiteral(rng.pick(LONG_ENDINGS))}`;
    return rng.chance(0.5) ? long : `*${long}`;
  }
  if (values.length > 0 && rng.chance(0.85)) {
    chars = Array.from(rng.pick(values));
  } else {
    chars = Array.from({ length: rng.int(0, 4) }, () => rng.pick(alphabet));
  }
  let out = '';
  for (let i = 0; i < chars.length; i++) {
    const r = rng.next();
    if (r < 0.12) {
      out += '?';
    } else if (r < 0.2) {
      out += '*';
      i += rng.int(0, 2);  // the run the * stands for
    } else if (r < 0.24) {
      out += literal(rng.pick(alphabet));  // changed: may no longer match
    } else {
      out += literal(chars[i]);
    }
  }
  if (rng.chance(0.08)) {
    // An escaped wildcard or backslash somewhere: a literal `*`, `?` or `\`. The
    // pattern is cut between characters, not between an escape and what it escapes.
    const units = Array.from(out);
    let at = rng.int(0, units.length);
    let backslashes = 0;
    while (backslashes < at && units[at - 1 - backslashes] === '\\') backslashes++;
    if (backslashes % 2 === 1) at -= 1;
    units.splice(at, 0, `\\${rng.pick(['*', '?', '\\'])}`);
    out = units.join('');
  }
  if (rng.chance(0.3)) out = `*${out}`;
  if (rng.chance(0.3)) out += '*';
  if (rng.chance(0.05)) out += '**';
  return out;
}

// RLIKE's regular expressions, in the syntax RE2 (quarry) and DuckDB (RE2 too)
// read alike, and Lucene's (ES|QL's) as well: literals, `.`, `[...]`, `[^...]`,
// `?`, `+`, `*`, `{n,m}`, `(a|b)` and `\` before a special character. DuckDB's
// regexp_full_match anchors both ends as RLIKE does; its option 's' makes `.`
// take a line break, as quarry's (Lucene's) does.
const RE_SPECIAL = /[\\.+*?()|[\]{}^$]/;
const reLiteral = (ch) => (RE_SPECIAL.test(ch) ? `\\${ch}` : ch);
const reClassMember = (ch) => (/[\\\]\[^-]/.test(ch) ? `\\${ch}` : ch);

/// An RLIKE pattern made from one of `values` (the strings an expression can
/// give) or from random characters: some characters become `.`, a class or a
/// repeated literal, some runs `.*`, `.*` added at either end, sometimes a
/// character changed, sometimes two such patterns as alternatives.
export function rlikePattern(rng, values) {
  const alphabet = [...'abet019%_*?.\\(', 'ñ', '日', '😀'];
  const source = () => (values.length > 0 && rng.chance(0.85)
    ? Array.from(rng.pick(values))
    : Array.from({ length: rng.int(0, 4) }, () => rng.pick(alphabet)));
  const piece = (chars) => {
    let out = '';
    for (let i = 0; i < chars.length; i++) {
      const ch = chars[i];
      const r = rng.next();
      if (r < 0.1) {
        out += '.';
      } else if (r < 0.17) {
        out += '.*';
        i += rng.int(0, 2);  // the run the .* stands for
      } else if (r < 0.22) {
        out += `[${reClassMember(ch)}${reClassMember(rng.pick(alphabet))}]`;
      } else if (r < 0.25) {
        out += `[^${reClassMember(rng.pick(alphabet))}]`;
      } else if (r < 0.3) {
        out += `${reLiteral(ch)}${rng.pick(['?', '+', '*', '{1,2}'])}`;
      } else if (r < 0.33) {
        out += reLiteral(rng.pick(alphabet));  // changed: may no longer match
      } else {
        out += reLiteral(ch);
      }
    }
    return out;
  };
  let out = rng.chance(0.15) ? `(${piece(source())}|${piece(source())})` : piece(source());
  if (rng.chance(0.3)) out = `.*${out}`;
  if (rng.chance(0.3)) out += '.*';
  return out;
}

// ---- Dates as text ---------------------------------------------------------------

// DATE_FORMAT's patterns and DuckDB's strftime formats that write the same text.
const DATE_PATTERNS = [
  ['yyyy-MM-dd', '%Y-%m-%d'], ['dd/MM/yy HH:mm', '%d/%m/%y %H:%M'], ['EEE, d MMM yyyy', '%a, %-d %b %Y'],
  ['EEEE MMMM', '%A %B'], ['hh:mm:ss a', '%I:%M:%S %p'], ["yyyy-MM-dd'T'HH:mm:ss.SSS", '%Y-%m-%dT%H:%M:%S.%g'],
  ['D', '%-j'], ['yyyyMMdd', '%Y%m%d'], ['M/d/yyyy', '%-m/%-d/%Y'], ["'day' D 'of' yyyy", 'day %-j of %Y'],
];
// DATE_PARSE's patterns, with the microseconds of their finest field.
const PARSE_PATTERNS = [
  ['yyyy-MM-dd', 86400000000], ['yyyy-MM-dd HH:mm', 60000000], ['yyyyMMddHHmmss', 1000000],
  ['dd/MM/yyyy hh:mm a', 60000000], ['EEE, d MMM yyyy HH:mm:ss.SSS', 1000], ['yyyy D', 86400000000],
];
// DATE_DIFF's units, their abbreviations, and the fixed ones' lengths in microseconds.
const DIFF_UNITS = [
  ['year', ['years', 'yy', 'yyyy']], ['quarter', ['quarters', 'qq', 'q']], ['month', ['months', 'mm', 'm']],
  ['week', ['weeks', 'wk', 'ww']], ['day', ['days', 'dd', 'd', 'dayofyear', 'dy', 'y', 'weekday', 'dw']],
  ['hour', ['hours', 'hh']], ['minute', ['minutes', 'mi', 'n']], ['second', ['seconds', 'ss', 's']],
  ['millisecond', ['milliseconds', 'ms']],
];
const DIFF_MICROS = { week: 604800000000, day: 86400000000, hour: 3600000000, minute: 60000000, second: 1000000,
  millisecond: 1000 };

/// ES|QL's ISO text of a date or timestamp column `a` (TO_STRING, DATE_FORMAT
/// without a pattern): milliseconds, or up to six fraction digits for a
/// microsecond timestamp (trailing zeros dropped, three at least), Z for a UTC one.
function isoTextSql(a) {
  if (a.kind === 'date') return `(strftime(${a.s}, '%Y-%m-%d') || 'T00:00:00.000Z')`;
  const digits = `rtrim(lpad(CAST(microsecond(${a.s}) % 1000000 AS VARCHAR), 6, '0'), '0')`;
  const fraction = `(CASE WHEN length(${digits}) < 3 THEN rpad(${digits}, 3, '0') ELSE ${digits} END)`;
  return `(strftime(${a.s}, '%Y-%m-%dT%H:%M:%S.') || ${fraction}${a.utc ? " || 'Z'" : ''})`;
}

/// Whole months from the instant of `ua` to that of `ub` (microseconds after 1970),
/// as Java's LocalDateTime.until(MONTHS).
function monthsBetweenSql(ua, ub) {
  const day = 86400000000;
  const [da, db, ta, tb] = [`(${ua} // ${day})`, `(${ub} // ${day})`, `(${ua} % ${day})`, `(${ub} % ${day})`];
  const end = `(CASE WHEN ${db} > ${da} AND ${tb} < ${ta} THEN ${db} - 1 WHEN ${db} < ${da} AND ${tb} > ${ta} ` +
              `THEN ${db} + 1 ELSE ${db} END)`;
  const packed = (d) => {
    const date = `(DATE '1970-01-01' + CAST(${d} AS INTEGER))`;
    return `((year(${date}) * 12 + month(${date}) - 1) * 32 + day(${date}))`;
  };
  return `((${packed(end)} - ${packed(da)}) // 32)`;
}

/// The generator of one query: its schema changes as commands are added.
class QueryBuilder {
  constructor(rng, columns) {
    this.rng = rng;
    this.schema = columns.map((c) => ({ ...c }));
    this.evalCount = 0;
    // What the query uses, for the corpus statistics (corpus_statistics.mjs).
    this.features = new Set();
  }

  columns(pred) {
    return this.schema.filter(pred);
  }

  /// The columns of `pred` but the extreme ones (big, ext), which only the
  /// overflow queries compute with, and the `approx` EVAL columns (mathValue),
  /// whose last bits may differ between the engines' C libraries.
  plain(pred) {
    return this.schema.filter((c) => !c.extreme && !c.approx && pred(c));
  }

  /// A numeric expression (never uint64: its arithmetic is not the engine's
  /// business yet), `depth` levels deep at most.
  numeric(depth = 2) {
    const rng = this.rng;
    const numericCols = this.plain((c) => isNumeric(c.kind));
    const leaf = () => colRef(rng.pick(numericCols));
    if (depth <= 0) return leaf();
    return rng.weighted([
      [4, leaf],
      [3, () => this.arithmetic(depth)],
      [3, () => this.numericFunction(depth)],
      [1, () => this.numericCase(depth)],
    ])();
  }

  arithmetic(depth) {
    const rng = this.rng;
    const a = this.numeric(depth - 1);
    const op = rng.weighted([[3, '+'], [3, '-'], [3, '*'], [2, '/'], [1, '%']]);
    // The other operand: a literal or a column that keeps the result exact
    // and free of overflow (int32 values are at most 1e5, int64 at most 1e12).
    let b;
    if (a.kind === 'double') {
      b = rng.chance(0.5) ? literalFor(rng, { kind: 'double' })
                          : colRef(rng.pick(this.plain((c) => c.kind === 'double' || isInteger(c.kind))));
    } else if (a.kind === 'decimal') {
      if (op === '/' || op === '%') return this.numericFunction(depth);
      if (op === '*') {
        // DuckDB multiplies two DECIMAL(18)s in 64 bits and raises on overflow:
        // only d9 (|unscaled| < 1e6) multiplies a column of scale 4 at most.
        if (a.scale > 4 || rng.chance(0.5)) b = expr(String(rng.int(-9, 9)), null, 'int32');
        else b = colRef(this.schema.find((c) => c.name === 'd9'));
      } else {
        b = rng.chance(0.5) ? colRef(rng.pick(this.plain((c) => c.kind === 'decimal')))
                            : literalFor(rng, { kind: 'decimal', scale: a.scale });
      }
    } else if (op === '*') {
      // A literal only: int32 * int32 columns would overflow (DuckDB raises).
      b = expr(String(rng.int(-9, 9)), null, 'int32');
    } else if (op === '/' || op === '%') {
      b = rng.chance(0.6) ? expr(String(rng.int(-7, 7)), null, 'int32')
                          : colRef(rng.pick(this.plain((c) => isInteger(c.kind))));
    } else {
      b = rng.chance(0.5) ? literalFor(rng, { kind: a.kind })
                          : colRef(rng.pick(this.plain((c) => isInteger(c.kind))));
    }
    if (b.s === null) b.s = b.q;
    // A negative literal is a unary minus in the query; parenthesize both sides.
    const q = `(${a.q} ${op} ${b.q})`;
    let kind;
    let scale;
    if (a.kind === 'double' || b.kind === 'double') kind = 'double';
    else if (a.kind === 'decimal' || b.kind === 'decimal') {
      kind = 'decimal';
      scale = op === '*' ? (a.scale ?? 0) + (b.scale ?? 0) : Math.max(a.scale ?? 0, b.scale ?? 0);
    } else kind = a.kind === 'int64' || b.kind === 'int64' ? 'int64' : 'int32';
    let s;
    if (op === '/' && kind === 'double') {
      s = `(CASE WHEN (${b.s}) = 0 THEN NULL ELSE (${a.s}) / (${b.s}) END)`;
    } else if (op === '/') {
      s = `((${a.s}) // (${b.s}))`;
    } else if (op === '%' && kind === 'double') {
      return a;  // fmod semantics are not specified yet
    } else {
      s = `((${a.s}) ${op} (${b.s}))`;
    }
    return expr(q, s, kind, { scale });
  }

  numericFunction(depth) {
    const rng = this.rng;
    const choice = rng.weighted([[3, 'abs'], [3, 'round'], [2, 'length'], [2, 'date_extract'],
      [2, 'coalesce'], [3, 'math'], [2, 'string_measure'], [3, 'conversion'], [2, 'date_diff'],
      [2, 'date_parse']]);
    switch (choice) {
      case 'math':
        return this.exactMath(depth);
      case 'conversion':
        return this.numericConversion(depth);
      case 'date_diff':
        return this.dateDiff();
      case 'date_parse':
        return this.dateParse();
      case 'string_measure':
        return this.stringMeasure(depth);
      case 'abs': {
        const a = this.numeric(depth - 1);
        return expr(`abs(${a.q})`, `abs(${a.s})`, a.kind, { scale: a.scale });
      }
      case 'round': {
        const a = colRef(rng.pick(this.plain((c) => c.kind === 'double' || c.kind === 'decimal')));
        if (a.kind === 'double') {
          if (rng.chance(0.3)) return expr(`round(${a.q})`, `round(${a.s})`, 'double');
          const n = rng.int(0, 3);
          return expr(`round(${a.q}, ${n})`, `round(${a.s}, ${n})`, 'double');
        }
        const n = rng.int(0, a.scale - 1);
        return expr(`round(${a.q}, ${n})`, `round(${a.s}, ${n})`, 'decimal', { scale: n });
      }
      case 'length': {
        const s = this.stringExpr(depth - 1);
        return expr(`length(${s.q})`, `length(${s.s})`, 'int64');
      }
      case 'date_extract': {
        const c = colRef(rng.pick(this.columns((x) => x.kind === 'date' || x.kind === 'timestamp')));
        const parts = c.kind === 'date' ? ['year', 'month', 'day'] : ['year', 'month', 'day', 'hour', 'minute'];
        const part = rng.pick(parts);
        return expr(`date_extract("${part}", ${c.q})`, `date_part('${part}', ${c.s})`, 'int64');
      }
      default: {
        const c = colRef(rng.pick(this.plain((x) => isNumeric(x.kind))));
        const lit = literalFor(rng, c);
        return expr(`coalesce(${c.q}, ${lit.q})`, `coalesce(${c.s}, ${lit.s})`, c.kind, { scale: c.scale });
      }
    }
  }

  numericCase(depth) {
    const rng = this.rng;
    const c = colRef(rng.pick(this.plain((x) => isNumeric(x.kind))));
    const p = this.predicate(depth - 1);
    const lit = literalFor(rng, c);
    return expr(`CASE WHEN ${p.q} THEN ${c.q} ELSE ${lit.q} END`,
                `(CASE WHEN ${p.s} THEN ${c.s} ELSE ${lit.s} END)`, c.kind, { scale: c.scale });
  }

  stringExpr(depth = 1) {
    const rng = this.rng;
    const c = colRef(rng.pick(this.columns((x) => x.kind === 'string')));
    if (depth <= 0 || rng.chance(0.4)) return c;
    // `values`: the strings the expression can give (LIKE patterns are made from them).
    const values = c.values ?? [];
    if (rng.chance(0.15)) return this.stringConversion();
    if (rng.chance(0.4)) return this.stringFunction(c, values);
    switch (rng.int(0, 5)) {
      case 0: return expr(`to_lower(${c.q})`, `lower(${c.s})`, 'string',
                          { values: values.map((v) => v.toLowerCase()) });
      case 1: return expr(`to_upper(${c.q})`, `upper(${c.s})`, 'string',
                          { values: values.map((v) => v.toUpperCase()) });
      case 2: {
        const start = rng.int(1, 3);
        const len = rng.int(1, 4);
        return expr(`substring(${c.q}, ${start}, ${len})`, `substring(${c.s}, ${start}, ${len})`, 'string',
                    { values: values.map((v) => Array.from(v).slice(start - 1, start - 1 + len).join('')) });
      }
      case 3: return expr(`coalesce(${c.q}, "none")`, `coalesce(${c.s}, 'none')`, 'string',
                          { values: [...values, 'none'] });
      case 4: {
        // ES|QL's REPLACE (Java's $n for a group) as DuckDB's regexp_replace (RE2's \n), every
        // match ('g'), `.` taking a line break ('s'). No pattern matches the empty string: where
        // the two RE2 versions step after an empty match is not what is tested here.
        const [re, rep] = rng.pick(kReplaceCases);
        this.features.add('replace');
        return expr(`replace(${c.q}, ${quarryString(re)}, ${quarryString(rep)})`,
                    `regexp_replace(${c.s}, ${sqlString(re)}, ${sqlString(rep.replace(/\$(\d)/g, '\\$1'))}, 'gs')`,
                    'string');
      }
      default: {
        const p = this.predicate(depth - 1);
        return expr(`CASE WHEN ${p.q} THEN ${c.q} ELSE "other" END`,
                    `(CASE WHEN ${p.s} THEN ${c.s} ELSE 'other' END)`, 'string', { values: [...values, 'other'] });
      }
    }
  }

  /// One of ES|QL's string functions of string_functions.h over the string column
  /// `c` (whose strings are `values`), with a string result.
  stringFunction(c, values) {
    const rng = this.rng;
    const choice = rng.weighted([[2, 'concat'], [3, 'trim'], [2, 'left_right'], [1, 'reverse'], [1, 'repeat'],
      [1, 'space'], [2, 'split'], [2, 'mv_concat'], [1, 'digest']]);
    this.features.add(choice);
    const chars = (v) => Array.from(v);
    switch (choice) {
      case 'concat': {
        const piece = rng.pick(CONCAT_PIECES);
        if (rng.chance(0.5)) {
          return expr(`concat(${c.q}, ${quarryString(piece)})`, `(${c.s} || ${sqlString(piece)})`, 'string',
                      { values: values.map((v) => v + piece) });
        }
        const other = colRef(rng.pick(this.columns((x) => x.kind === 'string')));
        return expr(`concat(${quarryString(piece)}, ${c.q}, ${other.q})`,
                    `(${sqlString(piece)} || ${c.s} || ${other.s})`, 'string');
      }
      case 'trim': {
        const fn = rng.pick(['trim', 'ltrim', 'rtrim']);
        const [before, after] = [rng.pick(TRIM_PADS), rng.pick(TRIM_PADS)];
        const padded = rng.chance(0.8);
        const q = padded ? `concat(${quarryStringAllEscaped(before)}, ${c.q}, ${quarryStringAllEscaped(after)})` : c.q;
        const sql = padded ? `(${sqlString(before)} || ${c.s} || ${sqlString(after)})` : c.s;
        const inner = padded ? values.map((v) => before + v + after) : values;
        return expr(`${fn}(${q})`, `${fn}(${sql}, ${sqlString(JAVA_WHITESPACE)})`, 'string',
                    { values: inner.map((v) => javaTrim(v, fn !== 'rtrim', fn !== 'ltrim')) });
      }
      case 'left_right': {
        const fn = rng.pick(['left', 'right']);
        const n = rng.weighted([[6, () => rng.int(0, 5)], [1, () => rng.int(-3, -1)], [1, () => 2000]])();
        const k = Math.max(n, 0);
        return expr(`${fn}(${c.q}, ${n})`, `${fn}(${c.s}, ${k})`, 'string',
                    { values: values.map((v) => (fn === 'left' ? chars(v).slice(0, k)
                                                                : chars(v).slice(chars(v).length - k)).join('')) });
      }
      case 'reverse':
        return expr(`reverse(${c.q})`, `reverse(${c.s})`, 'string',
                    { values: values.map((v) => chars(v).reverse().join('')) });
      case 'repeat': {
        const n = rng.int(0, 3);
        return expr(`repeat(${c.q}, ${n})`, `repeat(${c.s}, ${n})`, 'string',
                    { values: values.map((v) => v.repeat(n)) });
      }
      case 'digest': {
        // ES|QL's MD5, SHA1, SHA256 and DuckDB's functions of the same names: lowercase hex.
        const fn = rng.pick(['md5', 'sha1', 'sha256']);
        return expr(`${fn}(${c.q})`, `${fn}(${c.s})`, 'string',
                    { values: values.map((v) => createHash(fn).update(v, 'utf8').digest('hex')) });
      }
      case 'space': {
        const n = rng.int(0, 3);
        return expr(`concat(space(${n}), ${c.q})`, `(repeat(' ', ${n}) || ${c.s})`, 'string',
                    { values: values.map((v) => ' '.repeat(n) + v) });
      }
      case 'mv_concat': {
        // SPLIT's list shaped by an MV_ function of mv_functions.h, joined back into
        // one string: MV_SORT (DuckDB list_sort / list_reverse_sort), MV_DEDUPE (its
        // order unspecified, so sorted after; list_distinct), MV_APPEND of two splits
        // (list_concat), then MV_CONCAT (array_to_string).
        const d = rng.pick(SPLIT_DELIMITERS);
        const sep = rng.pick(['-', ', ', '', '|']);
        let q = `split(${c.q}, ${quarryString(d)})`;
        let sql = `string_split(${c.s}, ${sqlString(d)})`;
        let lists = values.map((v) => v.split(d));
        const byCodePoint = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
        const shape = rng.weighted([[3, 'mv_sort'], [2, 'mv_dedupe'], [2, 'mv_append'], [1, 'plain']]);
        if (shape !== 'plain') this.features.add(shape);
        if (shape === 'mv_append') {
          const d2 = rng.pick(SPLIT_DELIMITERS);
          // ES|QL's MV_APPEND of two nulls is null; DuckDB's list_concat gives [].
          q = `mv_append(${q}, split(${c.q}, ${quarryString(d2)}))`;
          sql = `(CASE WHEN ${c.s} IS NULL THEN NULL ELSE list_concat(${sql}, string_split(${c.s}, ${sqlString(d2)})) END)`;
          lists = values.map((v) => [...v.split(d), ...v.split(d2)]);
        } else if (shape === 'mv_dedupe') {
          q = `mv_sort(mv_dedupe(${q}))`;
          sql = `list_sort(list_distinct(${sql}))`;
          lists = lists.map((l) => [...new Set(l)].sort(byCodePoint));
        } else if (shape === 'mv_sort') {
          if (rng.chance(0.5)) {
            q = `mv_sort(${q}, "desc")`;
            sql = `list_reverse_sort(${sql})`;
            lists = lists.map((l) => [...l].sort(byCodePoint).reverse());
          } else {
            q = `mv_sort(${q})`;
            sql = `list_sort(${sql})`;
            lists = lists.map((l) => [...l].sort(byCodePoint));
          }
        }
        return expr(`mv_concat(${q}, ${quarryString(sep)})`, `array_to_string(${sql}, ${sqlString(sep)})`, 'string',
                    { values: lists.map((l) => l.join(sep)) });
      }
      default: {
        // A piece of SPLIT's list: the list itself stays out of the corpus (a later
        // COUNT of it would count its elements in quarry, its rows in DuckDB).
        const d = rng.pick(SPLIT_DELIMITERS);
        const [fn, sql] = rng.pick([['mv_first', (x) => `${x}[1]`], ['mv_last', (x) => `${x}[-1]`],
          ['mv_min', (x) => `list_min(${x})`], ['mv_max', (x) => `list_max(${x})`]]);
        return expr(`${fn}(split(${c.q}, ${quarryString(d)}))`, sql(`string_split(${c.s}, ${sqlString(d)})`),
                    'string', { values: values.flatMap((v) => v.split(d)) });
      }
    }
  }

  /// LOCATE, BYTE_LENGTH / BIT_LENGTH or MV_COUNT(SPLIT(...)) of a string expression: an int64.
  stringMeasure(depth) {
    const rng = this.rng;
    const s = this.stringExpr(depth - 1);
    const choice = rng.weighted([[3, 'locate'], [2, 'byte_length'], [1, 'split']]);
    this.features.add(choice === 'split' ? 'split' : choice);
    if (choice === 'byte_length') {
      return rng.chance(0.5) ? expr(`byte_length(${s.q})`, `strlen(${s.s})`, 'int64')
                             : expr(`bit_length(${s.q})`, `bit_length(${s.s})`, 'int64');
    }
    if (choice === 'split') {
      const d = rng.pick(SPLIT_DELIMITERS);
      return expr(`mv_count(split(${s.q}, ${quarryString(d)}))`, `len(string_split(${s.s}, ${sqlString(d)}))`,
                  'int64');
    }
    // A piece of one of its values, or a character that may not be there.
    const values = s.values ?? [];
    let sub = rng.pick(['a', 'e', '😀', '本', '%', '_', '\\', 'ta']);
    if (values.length && rng.chance(0.6)) {
      const v = Array.from(rng.pick(values));
      const from = rng.int(0, Math.max(v.length - 1, 0));
      sub = v.slice(from, from + rng.int(1, 2)).join('');
    }
    if (sub === '' || rng.chance(0.4)) {
      return expr(`locate(${s.q}, ${quarryString(sub)})`, `strpos(${s.s}, ${sqlString(sub)})`, 'int64');
    }
    // With a start: DuckDB finds in substring(x, start), then shifts by the
    // characters ES|QL skips (start - 1, none for 0, length + start for a negative one).
    const start = rng.weighted([[4, () => rng.int(1, 6)], [1, () => 0], [2, () => rng.int(-4, -1)]])();
    const shift = start > 0 ? `${start - 1}` : start === 0 ? '0' : `greatest(length(${s.s}) + (${start}), 0)`;
    const found = `strpos(substring(${s.s}, ${start}), ${sqlString(sub)})`;
    return expr(`locate(${s.q}, ${quarryString(sub)}, ${start})`,
                `(CASE WHEN ${found} = 0 THEN 0 ELSE ${found} + ${shift} END)`, 'int64');
  }

  /// ENDS_WITH of a string expression.
  endsWith() {
    const rng = this.rng;
    const c = this.stringExpr(1);
    const values = c.values ?? [];
    let suffix = rng.pick(['a', 'ta', '', '😀', '語', '%', 'y', ' ']);
    if (values.length && rng.chance(0.5)) suffix = Array.from(rng.pick(values)).slice(-rng.int(1, 3)).join('');
    this.features.add('ends_with');
    return expr(`ends_with(${c.q}, ${quarryString(suffix)})`, `ends_with(${c.s}, ${sqlString(suffix)})`, 'boolean');
  }

  // ---- Conversions and date functions (conversion_functions.h, temporal_functions.h) --
  //
  // ES|QL's rules spelled out for DuckDB (the header lists each mapping): Java's
  // Math.round, null where ES|QL warns, Java's and DuckDB's text of numbers where
  // they agree, ES|QL's ISO text of instants, ChronoUnit's whole units.

  /// `fn(x)`, or ES|QL's inline cast `x::type` (which the parser makes the same call).
  castText(fn, a) {
    const types = { to_integer: ['int', 'integer'], to_long: ['long'], to_double: ['double'],
      to_string: ['string', 'keyword'], to_boolean: ['boolean', 'bool'] }[fn];
    if (!types || !this.rng.chance(0.35)) return `${fn}(${a.q})`;
    this.features.add('cast');
    const operand = /^[A-Za-z_`][A-Za-z0-9_`]*$/.test(a.q) ? a.q : `(${a.q})`;
    return `${operand}::${this.rng.pick(types)}`;
  }

  /// TO_INTEGER, TO_LONG or TO_DOUBLE (or TO_LONG(TO_UNSIGNED_LONG(x))) of a double,
  /// a decimal, an integer, a boolean, a date or timestamp, or a string.
  numericConversion(depth) {
    const rng = this.rng;
    this.features.add('conversion');
    const from = rng.weighted([[3, 'double'], [2, 'decimal'], [2, 'integer'], [1, 'boolean'], [2, 'instant'],
      [2, 'string'], [1, 'unsigned']]);
    const fn = from === 'unsigned' ? 'to_long' : rng.pick(['to_integer', 'to_long', 'to_double']);
    const kind = { to_integer: 'int32', to_long: 'int64', to_double: 'double' }[fn];
    const sqlType = { int32: 'INTEGER', int64: 'BIGINT', double: 'DOUBLE' }[kind];
    const [lo, hi] = kind === 'int32' ? ['-2147483648', '2147483647'] : ['-9223372036854775808', '9223372036854775807'];
    const inRange = (v) => `(CASE WHEN (${v}) BETWEEN ${lo} AND ${hi} THEN CAST(${v} AS ${sqlType}) END)`;
    // A double as ES|QL's safeToInt / safeDoubleToLong: out of range (NaN too) null, else Math.round.
    const roundedDouble = (x) => (kind === 'double' ? `(${x})`
      : `(CASE WHEN isnan(${x}) OR (${x}) > ${hi}.0 OR (${x}) < ${lo}.0 OR (${x}) >= 9223372036854775807.0 THEN NULL ` +
        `ELSE CAST((CASE WHEN (${x}) - floor(${x}) >= 0.5 THEN floor(${x}) + 1 ELSE floor(${x}) END) AS ${sqlType}) END)`);
    const pick = (pred) => colRef(rng.pick(this.plain(pred)));
    switch (from) {
      case 'double': {
        const a = depth > 1 && rng.chance(0.3) ? this.numeric(depth - 1) : pick((c) => c.kind === 'double');
        if (a.kind !== 'double') {
          // An integer or decimal expression: a decimal rounds half up, as Math.round.
          const exact = a.kind === 'decimal' ? `floor(${a.s} + 0.5)` : a.s;
          return expr(this.castText(fn, a), kind === 'double' ? `CAST(${a.s} AS DOUBLE)` : inRange(exact), kind);
        }
        return expr(this.castText(fn, a), roundedDouble(a.s), kind);
      }
      case 'decimal': {
        // d38's unscaled values pass 2^53: DuckDB's double of them need not be the nearest.
        const a = pick((c) => c.kind === 'decimal' && (kind !== 'double' || c.name !== 'd38'));
        return expr(this.castText(fn, a), kind === 'double' ? `CAST(${a.s} AS DOUBLE)` : inRange(`floor(${a.s} + 0.5)`),
                    kind);
      }
      case 'integer': {
        const a = pick((c) => isInteger(c.kind));
        return expr(this.castText(fn, a), kind === 'double' ? `CAST(${a.s} AS DOUBLE)` : inRange(a.s), kind);
      }
      case 'boolean': {
        const a = colRef(rng.pick(this.columns((c) => c.kind === 'boolean')));
        return expr(this.castText(fn, a), `CAST(${a.s} AS ${sqlType})`, kind);
      }
      case 'instant': {
        const a = colRef(rng.pick(this.columns((c) => c.kind === 'date' || c.kind === 'timestamp')));
        const millis = `(epoch_us(${a.kind === 'date' ? `CAST(${a.s} AS TIMESTAMP)` : a.s}) // 1000)`;
        return expr(this.castText(fn, a), kind === 'double' ? `CAST(${millis} AS DOUBLE)` : inRange(millis), kind);
      }
      case 'string': {
        // s_high's hexadecimal strings: some all digits, some with an exponent ("3e4"),
        // some with Java's float suffix ("12d"), most no number.
        const a = rng.chance(0.2) ? colRef(rng.pick(this.columns((c) => c.kind === 'string')))
                                  : colRef(this.schema.find((c) => c.name === 's_high'));
        const v = `TRY_CAST(regexp_replace(${a.s}, '[fFdD]$', '') AS DOUBLE)`;
        const finite = `(CASE WHEN isfinite(${v}) THEN ${v} END)`;
        return expr(this.castText(fn, a), roundedDouble(finite), kind);
      }
      default: {
        // TO_UNSIGNED_LONG truncates toward zero and is null below 0; TO_LONG brings it back.
        const a = pick((c) => c.kind === 'double' || c.kind === 'decimal' || isInteger(c.kind));
        const t = isInteger(a.kind) ? a.s : `trunc(${a.s})`;
        const nan = a.kind === 'double' ? `NOT isnan(${a.s}) AND ` : '';
        return expr(`to_long(to_unsigned_long(${a.q}))`,
                    `(CASE WHEN ${nan}${t} >= 0 AND ${t} < 9223372036854775807 THEN CAST(${t} AS BIGINT) END)`, 'int64');
      }
    }
  }

  /// TO_STRING of a number, boolean, string, date or timestamp, or DATE_FORMAT.
  stringConversion() {
    const rng = this.rng;
    const from = rng.weighted([[2, 'number'], [1, 'double'], [1, 'boolean'], [2, 'instant'], [3, 'format']]);
    if (from === 'format') return this.dateFormat();
    this.features.add('conversion');
    this.features.add('to_string');
    switch (from) {
      case 'number': {
        const a = colRef(rng.pick(this.plain((c) => isInteger(c.kind) || c.kind === 'decimal' ||
                                                    c.kind === 'uint64')));
        return expr(this.castText('to_string', a), `CAST(${a.s} AS VARCHAR)`, 'string');
      }
      case 'double': {
        const a = colRef(rng.pick(this.plain((c) => c.kind === 'double')));
        const plain = (x) => `abs(${x}) >= 1e-3 AND abs(${x}) < 1e7`;
        return expr(`CASE WHEN ${plain(a.q)} THEN ${this.castText('to_string', a)} ELSE "out" END`,
                    `(CASE WHEN ${plain(a.s)} THEN CAST(${a.s} AS VARCHAR) ELSE 'out' END)`, 'string');
      }
      case 'boolean': {
        const a = colRef(rng.pick(this.columns((c) => c.kind === 'boolean')));
        return expr(this.castText('to_string', a), `CAST(${a.s} AS VARCHAR)`, 'string');
      }
      default: {
        const a = colRef(rng.pick(this.columns((c) => c.kind === 'date' || c.kind === 'timestamp')));
        return expr(this.castText('to_string', a), isoTextSql(a), 'string');
      }
    }
  }

  /// DATE_FORMAT with a pattern DuckDB's strftime can write, or without one (ES|QL's ISO text).
  dateFormat() {
    const rng = this.rng;
    this.features.add('date_format');
    const a = colRef(rng.pick(this.columns((c) => c.kind === 'date' || c.kind === 'timestamp')));
    if (rng.chance(0.2)) return expr(`date_format(${a.q})`, isoTextSql(a), 'string');
    const [pattern, format] = rng.pick(DATE_PATTERNS);
    return expr(`date_format(${quarryString(pattern)}, ${a.q})`, `strftime(${a.s}, ${sqlString(format)})`, 'string');
  }

  /// DATE_PARSE of what DATE_FORMAT wrote (the instant truncated to the pattern's
  /// finest field), or of strings that are no date (null), in milliseconds.
  dateParse() {
    const rng = this.rng;
    this.features.add('date_parse');
    if (rng.chance(0.15)) {
      const s = colRef(rng.pick(this.columns((c) => c.kind === 'string')));
      return expr(`to_long(date_parse("yyyy-MM-dd", ${s.q}))`, 'CAST(NULL AS BIGINT)', 'int64');
    }
    const a = colRef(rng.pick(this.columns((c) => c.kind === 'date' || c.kind === 'timestamp')));
    const [pattern, unitMicros] = rng.pick(PARSE_PATTERNS);
    const us = `epoch_us(${a.kind === 'date' ? `CAST(${a.s} AS TIMESTAMP)` : a.s})`;
    return expr(`to_long(date_parse(${quarryString(pattern)}, date_format(${quarryString(pattern)}, ${a.q})))`,
                `((${us} // ${unitMicros}) * ${unitMicros / 1000})`, 'int64');
  }

  /// DATE_DIFF between two instants of the data (an int32, null outside it).
  dateDiff() {
    const rng = this.rng;
    this.features.add('date_diff');
    const instants = this.columns((c) => c.kind === 'date' || c.kind === 'timestamp');
    const [a, b] = [colRef(rng.pick(instants)), colRef(rng.pick(instants))];
    const [unit, names] = rng.pick(DIFF_UNITS);
    const name = rng.chance(0.3) ? rng.pick(names) : unit;
    const us = (x) => `epoch_us(${x.kind === 'date' ? `CAST(${x.s} AS TIMESTAMP)` : x.s})`;
    let diff;
    if (['year', 'quarter', 'month'].includes(unit)) {
      const months = monthsBetweenSql(us(a), us(b));
      diff = unit === 'month' ? months : `(${months} // ${unit === 'year' ? 12 : 3})`;
    } else {
      diff = `((${us(b)} - ${us(a)}) // ${DIFF_MICROS[unit]})`;
    }
    return expr(`date_diff(${quarryString(name)}, ${a.q}, ${b.q})`,
                `(CASE WHEN ${diff} BETWEEN -2147483648 AND 2147483647 THEN CAST(${diff} AS INTEGER) END)`, 'int32');
  }

  /// TO_BOOLEAN of a string (true for "true" in any case) or of a number (!= 0).
  toBoolean() {
    const rng = this.rng;
    this.features.add('conversion');
    if (rng.chance(0.5)) {
      const a = rng.chance(0.5) ? expr('to_string(flag)', 'CAST("flag" AS VARCHAR)', 'string')
                                : (rng.chance(0.5) ? expr('to_upper(to_string(flag))', 'upper(CAST("flag" AS VARCHAR))', 'string')
                                                   : this.stringExpr(1));
      return expr(this.castText('to_boolean', a), `(CASE WHEN (${a.s}) IS NULL THEN NULL ELSE lower(${a.s}) = 'true' END)`,
                  'boolean');
    }
    const a = colRef(rng.pick(this.plain((c) => isNumeric(c.kind))));
    return expr(this.castText('to_boolean', a), `((${a.s}) <> 0)`, 'boolean');
  }

  temporalExpr() {
    const rng = this.rng;
    const column = rng.pick(this.columns((x) => x.kind === 'date' || x.kind === 'timestamp'));
    const c = colRef(column);
    if (rng.chance(0.4)) return this.spanExpr(c, column.utc);
    if (c.kind === 'date') {
      const unit = rng.pick(['year', 'month']);
      return expr(`date_trunc("${unit}", ${c.q})`, `CAST(date_trunc('${unit}', ${c.s}) AS DATE)`, 'date');
    }
    const unit = rng.pick(['year', 'month', 'day', 'hour']);
    // DuckDB folds `date_trunc(u, ts) <> T` to TRUE when T is not truncated to u,
    // even where ts is NULL (the comparison is then NULL): the CASE keeps it honest.
    return expr(`date_trunc("${unit}", ${c.q})`,
                `(CASE WHEN ${c.s} IS NULL THEN NULL ELSE date_trunc('${unit}', ${c.s}) END)`, 'timestamp');
  }

  /// A time span at work (ES|QL's time spans): DATE_TRUNC or BUCKET to a span, or a
  /// date or timestamp moved by one. DuckDB: date_trunc for one calendar unit,
  /// time_bucket from 1970-01-01 for fixed lengths, `+ INTERVAL` for arithmetic.
  spanExpr(c, utc) {
    const rng = this.rng;
    this.features.add('time_span');
    const nullSafe = (sql) => `(CASE WHEN ${c.s} IS NULL THEN NULL ELSE ${sql} END)`;
    if (rng.chance(0.5)) {
      const n = rng.pick([1, 2, 3, 5, 12]);
      const unit = rng.pick(c.kind === 'date' ? ['day', 'month', 'year'] : ['minute', 'hour', 'day', 'month']);
      const sign = rng.chance(0.5) ? '+' : '-';
      const span = `${n} ${unit}${n === 1 ? '' : 's'}`;
      // A date moved by days or more stays a date in quarry; DuckDB's is a timestamp.
      const sql = c.kind === 'date' ? `CAST(${c.s} ${sign} INTERVAL ${n} ${unit} AS DATE)`
                                    : `(${c.s} ${sign} INTERVAL ${n} ${unit})`;
      const q = sign === '+' && rng.chance(0.3) ? `${span} + ${c.q}` : `${c.q} ${sign} ${span}`;
      return expr(q, sql, c.kind);
    }
    const calendar = rng.chance(0.4);
    const [n, unit] = calendar ? [1, rng.pick(['week', 'month', 'quarter', 'year'])]
                               : [rng.pick([1, 2, 7, 15, 90]), c.kind === 'date' ? 'day' : rng.pick(['minute', 'hour', 'day'])];
    const span = `${n} ${unit}${n === 1 ? '' : 's'}`;
    const q = rng.chance(0.5) ? `date_trunc(${span}, ${c.q})` : `bucket(${c.q}, ${span})`;
    const bucketed = calendar ? `date_trunc('${unit}', ${c.s})`
                              : `time_bucket(INTERVAL ${n} ${unit}, ${c.s}, ${c.kind === 'date' ? "DATE '1970-01-01'" : `${utc ? 'TIMESTAMPTZ' : 'TIMESTAMP'} '1970-01-01 00:00:00'`})`;
    return c.kind === 'date' ? expr(q, `CAST(${bucketed} AS DATE)`, 'date')
                             : expr(q, nullSafe(bucketed), 'timestamp');
  }

  /// A boolean expression.
  predicate(depth = 2) {
    const rng = this.rng;
    if (depth > 0 && rng.chance(0.3)) {
      const form = rng.weighted([[3, 'AND'], [2, 'OR'], [1, 'NOT']]);
      if (form === 'NOT') {
        const p = this.predicate(depth - 1);
        return expr(`NOT (${p.q})`, `NOT (${p.s})`, 'boolean');
      }
      const a = this.predicate(depth - 1);
      const b = this.predicate(depth - 1);
      return expr(`(${a.q} ${form} ${b.q})`, `(${a.s} ${form} ${b.s})`, 'boolean');
    }
    return rng.weighted([
      [6, () => this.comparison()],
      [2, () => this.isNull()],
      [2, () => this.inList()],
      [2, () => this.like()],
      [1, () => this.rlike()],
      [1, () => this.startsWith()],
      [1, () => this.endsWith()],
      [1, () => this.booleanColumn()],
      [2, () => this.computedComparison()],
      [1, () => this.toBoolean()],
    ])();
  }

  comparison() {
    const rng = this.rng;
    // The all-NULL column now and then: a comparison with it is never true.
    const c = colRef(rng.pick(this.columns((x) => LITERAL_KINDS.includes(x.kind) && !x.approx &&
                                                  (!x.allNull || rng.chance(0.3)))));
    const lit = literalFor(rng, c);
    // Booleans are equal or not; they have no order to compare.
    const op = rng.pick(c.kind === 'boolean' ? ['==', '!='] : ['==', '!=', '<', '<=', '>', '>=']);
    const sqlOp = { '==': '=', '!=': '<>' }[op] ?? op;
    return expr(`${c.q} ${op} ${lit.q}`, `(${c.s} ${sqlOp} ${lit.s})`, 'boolean');
  }

  computedComparison() {
    const rng = this.rng;
    const op = rng.pick(['==', '!=', '<', '<=', '>', '>=']);
    const sqlOp = { '==': '=', '!=': '<>' }[op] ?? op;
    let a;
    let lit;
    if (rng.chance(0.25)) {
      a = this.temporalExpr();
      lit = literalFor(rng, a);
    } else if (rng.chance(0.15)) {
      a = this.exactMath(2);
      lit = literalFor(rng, a.kind === 'decimal' ? { kind: 'decimal', scale: 0 }
                                                 : { kind: a.kind === 'double' ? 'double' : 'int32' });
    } else if (rng.chance(0.1)) {
      // A position or a length of a string: small numbers, compared with small literals.
      a = this.stringMeasure(2);
      lit = expr(String(rng.int(0, 6)), null, 'int32');
      lit.s = lit.q;
    } else if (rng.chance(0.2)) {
      a = this.stringExpr(1);
      lit = literalFor(rng, { kind: 'string', values: [...LOW_STRINGS, 'ÑANDÚ', 'ALPHA', 'ot', 'al'] });
    } else {
      a = this.numeric(2);
      lit = literalFor(rng, a.kind === 'decimal' ? { kind: 'decimal', scale: Math.min(a.scale, 4) }
                                                 : { kind: a.kind === 'double' ? 'double' : 'int32' });
    }
    return expr(`${a.q} ${op} ${lit.q}`, `(${a.s} ${sqlOp} ${lit.s})`, 'boolean');
  }

  isNull() {
    const c = colRef(this.rng.pick(this.schema));
    const negated = this.rng.chance(0.5);
    return expr(`${c.q} IS ${negated ? 'NOT ' : ''}NULL`, `(${c.s} IS ${negated ? 'NOT ' : ''}NULL)`,
                'boolean');
  }

  inList() {
    const rng = this.rng;
    const c = colRef(rng.pick(this.columns((x) =>
        ['int32', 'int64', 'string', 'date', 'decimal', 'uint64'].includes(x.kind))));
    const lits = Array.from({ length: rng.int(1, 4) }, () => literalFor(rng, c));
    if (c.kind === 'int32' && rng.chance(0.5)) {
      // Values that exist: small ones are rare in i32, so take some near zero.
      lits.push(expr('0', '0', 'int32'));
    }
    const negated = rng.chance(0.3) ? 'NOT ' : '';
    return expr(`${c.q} ${negated}IN (${lits.map((l) => l.q).join(', ')})`,
                `(${c.s} ${negated}IN (${lits.map((l) => l.s).join(', ')}))`, 'boolean');
  }

  /// A random LIKE pattern over a string expression (likePattern); the SQL is
  /// DuckDB's LIKE with ESCAPE '\\' (sqlLikePattern). The data holds `%`, `_`, `\`,
  /// `*` and `?` (s_utf8), so patterns where they are wildcards and where they
  /// stand for themselves both meet them. The quarry literal is sometimes written
  /// with the lexer's escapes (\uXXXX, \\, \"), sometimes as a triple-quoted
  /// string, where a backslash is itself.
  like() {
    const rng = this.rng;
    const c = this.stringExpr(1);
    const pattern = likePattern(rng, c.values ?? []);
    const negated = rng.chance(0.3) ? 'NOT ' : '';
    const form = rng.weighted([[5, 'plain'], [2, 'escaped'], [2, 'triple']]);
    this.features.add('like');
    if (pattern.includes('\\')) this.features.add('like_backslash');
    if (/[%_]/.test(pattern)) this.features.add('like_sql_wildcard');
    if (form === 'escaped' && /[^\x00-\x7f]/u.test(pattern)) this.features.add('like_unicode_escape');
    if (/[^\x00-\x7f]/u.test(pattern)) this.features.add('like_utf8');
    let literal;
    if (form === 'triple' && !pattern.includes('"""')) {
      this.features.add('like_triple_quoted');
      literal = `"""${pattern}"""`;
    } else {
      literal = form === 'escaped' ? quarryStringEscaped(pattern) : quarryString(pattern);
    }
    if (rng.chance(0.2)) {
      // A list of patterns: true when any matches (the LIKEs joined by OR).
      this.features.add('like_list');
      const more = Array.from({ length: rng.int(1, 2) }, () => likePattern(rng, c.values ?? []));
      const literals = [literal, ...more.map((p) => quarryString(p))];
      const sqls = [pattern, ...more].map((p) => likeSql(c.s, '', p));
      return expr(`${c.q} ${negated}LIKE (${literals.join(', ')})`, `(${negated}(${sqls.join(' OR ')}))`,
                  'boolean');
    }
    return expr(`${c.q} ${negated}LIKE ${literal}`, likeSql(c.s, negated, pattern), 'boolean');
  }

  /// A random RLIKE over a string expression (rlikePattern); the SQL is DuckDB's
  /// regexp_full_match with option 's' (RE2's `.` taking a line break).
  rlike() {
    const rng = this.rng;
    const c = this.stringExpr(1);
    const pattern = rlikePattern(rng, c.values ?? []);
    const negated = rng.chance(0.3) ? 'NOT ' : '';
    this.features.add('rlike');
    if (/[^\x00-\x7f]/u.test(pattern)) this.features.add('rlike_utf8');
    if (pattern.includes('|')) this.features.add('rlike_alternation');
    const literal = rng.chance(0.3) && !pattern.includes('"""') ? `"""${pattern}"""` : quarryString(pattern);
    return expr(`${c.q} ${negated}RLIKE ${literal}`,
                `(${negated}regexp_full_match(${c.s}, ${sqlString(pattern)}, 's'))`, 'boolean');
  }

  startsWith() {
    const rng = this.rng;
    const c = this.stringExpr(1);
    const prefix = rng.pick(['a', 'al', 'e', 'ñ', 'no', '', '1', 'f', 'T', 'Io', '日', '😀', '日本語😀', '\\', '%']);
    return expr(`starts_with(${c.q}, ${quarryString(prefix)})`,
                `starts_with(${c.s}, ${sqlString(prefix)})`, 'boolean');
  }

  booleanColumn() {
    const bools = this.columns((x) => x.kind === 'boolean');
    if (bools.length === 0) return this.comparison();
    const c = colRef(this.rng.pick(bools));
    return this.rng.chance(0.5) ? c : expr(`NOT ${c.q}`, `(NOT ${c.s})`, 'boolean');
  }

  /// Any expression worth an EVAL column.
  evalValue() {
    return this.rng.weighted([
      [5, () => this.numeric(2)],
      [2, () => this.stringExpr(1)],
      [1, () => this.stringMeasure(2)],
      [1, () => this.temporalExpr()],
      [1, () => this.predicate(1)],
      [3, () => this.mathValue()],
      [1, () => this.orderedExtreme()],
    ])();
  }

  // ---- Math functions (math_functions.h) ----------------------------------------
  //
  // ES|QL gives null where DuckDB raises (SQRT of a negative, LOG of a non-positive
  // number, ASIN/ACOS outside [-1, 1]) or gives a non-finite double (POW, SINH,
  // COSH): the SQL writes that null with a CASE, which DuckDB evaluates only on
  // the rows its condition leaves to the function. NaN passes ES|QL's checks
  // (they are comparisons) and DuckDB's alike, except `abs(x) > 1`, which DuckDB
  // holds true for NaN: there the SQL tests isnan. DuckDB's SIGN is an integer
  // of 0 for NaN and both zeros; ES|QL's SIGNUM a double that is the zero or NaN
  // itself. DuckDB's FLOOR and CEIL take an integer as a double: cast back.

  /// A number for a math function: a column (now and then u64, which the
  /// double-valued functions take as a double) or a numeric expression.
  mathArgument(depth, allowUnsigned = false) {
    const rng = this.rng;
    if (allowUnsigned && rng.chance(0.1)) {
      const u = this.plain((c) => c.kind === 'uint64');
      if (u.length) return colRef(rng.pick(u));
    }
    return depth > 1 && rng.chance(0.3) ? this.numeric(depth - 1)
                                         : colRef(rng.pick(this.plain((c) => isNumeric(c.kind))));
  }

  /// A math function whose double is the same bits in both engines: SQRT (correctly
  /// rounded), FLOOR, CEIL, SIGNUM, GREATEST and LEAST of numbers.
  exactMath(depth) {
    const rng = this.rng;
    this.features.add('math');
    const fn = rng.weighted([[2, 'sqrt'], [2, 'floor'], [2, 'ceil'], [1, 'signum'], [2, 'extreme']]);
    if (fn === 'extreme') return this.numericExtreme(depth);
    const a = this.mathArgument(depth, fn === 'sqrt' || fn === 'signum');
    if (fn === 'sqrt') {
      return expr(`sqrt(${a.q})`, `(CASE WHEN (${a.s}) < 0 THEN NULL ELSE sqrt(${a.s}) END)`, 'double');
    }
    if (fn === 'signum') {
      const s = a.kind === 'double'
        ? `(CASE WHEN isnan(${a.s}) OR (${a.s}) = 0 THEN (${a.s}) ELSE CAST(sign(${a.s}) AS DOUBLE) END)`
        : `CAST(sign(${a.s}) AS DOUBLE)`;
      return expr(`signum(${a.q})`, s, 'double');
    }
    // floor, ceil
    if (isInteger(a.kind)) {
      return expr(`${fn}(${a.q})`, `CAST(${fn}(${a.s}) AS ${a.kind === 'int32' ? 'INTEGER' : 'BIGINT'})`, a.kind);
    }
    return expr(`${fn}(${a.q})`, `${fn}(${a.s})`, a.kind, { scale: a.kind === 'decimal' ? 0 : undefined });
  }

  /// GREATEST or LEAST of two or three numbers, in their common type; null when one
  /// is null (DuckDB's skip nulls: the CASE says otherwise).
  numericExtreme(depth) {
    const rng = this.rng;
    this.features.add('greatest_least');
    const fn = rng.pick(['greatest', 'least']);
    // Columns (no arithmetic: a decimal expression's wide type could pass 38 digits
    // joined with another) and literals whose text says their type.
    const literal = () => rng.pick([
      () => expr(String(rng.int(-100, 100)), null, 'int32', { literal: true }),
      () => expr(`${(rng.next() * 200 - 100).toFixed(2)}e0`, null, 'double', { literal: true }),
      () => expr(`${rng.int(-999, 999)}.${pad(rng.int(0, 99))}`, null, 'decimal', { scale: 2, literal: true }),
    ])();
    const args = Array.from({ length: rng.int(2, 3) }, () => (rng.chance(0.2) ? literal() : this.mathArgument(1)));
    if (args.every((a) => a.literal)) args[0] = this.mathArgument(1);
    for (const a of args) a.s = a.s ?? a.q;
    let kind;
    let scale;
    if (args.some((a) => a.kind === 'double')) kind = 'double';
    else if (args.some((a) => a.kind === 'decimal')) {
      kind = 'decimal';
      scale = Math.max(...args.map((a) => (a.kind === 'decimal' ? a.scale ?? 0 : 0)));
    } else kind = args.some((a) => a.kind === 'int64') ? 'int64' : 'int32';
    return expr(`${fn}(${args.map((a) => a.q).join(', ')})`,
                `(CASE WHEN ${args.map((a) => `(${a.s}) IS NULL`).join(' OR ')} THEN NULL ` +
                `ELSE ${fn}(${args.map((a) => a.s).join(', ')}) END)`, kind, { scale });
  }

  /// GREATEST or LEAST of strings, dates and timestamps, or booleans (an EVAL value).
  orderedExtreme() {
    const rng = this.rng;
    this.features.add('greatest_least');
    const fn = rng.pick(['greatest', 'least']);
    const family = rng.weighted([[3, 'string'], [2, 'instant'], [1, 'boolean'], [2, 'number']]);
    let args;
    if (family === 'number') return this.numericExtreme(2);
    if (family === 'string') {
      const pick = () => (rng.chance(0.25) ? literalFor(rng, { kind: 'string', values: [...LOW_STRINGS, 'm', 'ñ', '日本', ''] })
                                            : colRef(rng.pick(this.columns((c) => c.kind === 'string'))));
      args = Array.from({ length: rng.int(2, 3) }, pick);
    } else if (family === 'boolean') {
      const flag = colRef(rng.pick(this.columns((c) => c.kind === 'boolean')));
      args = [flag, rng.chance(0.5) ? literalFor(rng, { kind: 'boolean' }) : flag];
    } else {
      // A date with a local timestamp (the date's midnight), or instants of one kind.
      const day = colRef(rng.pick(this.columns((c) => c.name === 'day')));
      const local = this.columns((c) => c.name === 'ts_local').map(colRef);
      const form = rng.int(0, 2);
      if (form === 0 || local.length === 0) args = [day, literalFor(rng, { kind: 'date' })];
      else if (form === 1) args = [day, local[0]];
      else args = [local[0], literalFor(rng, { kind: 'timestamp' })];
    }
    const kind = args.some((a) => a.kind === 'timestamp') ? 'timestamp' : args[0].kind;
    const values = args.every((a) => a.values || a.kind !== 'string')
      ? args.flatMap((a) => a.values ?? []) : undefined;
    return expr(`${fn}(${args.map((a) => a.q).join(', ')})`,
                `(CASE WHEN ${args.map((a) => `(${a.s}) IS NULL`).join(' OR ')} THEN NULL ` +
                `ELSE ${fn}(${args.map((a) => a.s).join(', ')}) END)`, kind,
                { values: kind === 'string' ? values : undefined });
  }

  /// Any math function as an EVAL value. The transcendental ones are `approx`:
  /// both engines call the C library, but nothing promises its last bit, so their
  /// columns compare within 1e-9 and feed no comparison, sort or sum.
  mathValue() {
    const rng = this.rng;
    this.features.add('math');
    const fn = rng.weighted([[3, 'exact'], [1, 'cbrt'], [1, 'exp'], [2, 'log'], [1, 'log10'], [2, 'log_base'],
      [2, 'pow'], [1, 'sin'], [1, 'cos'], [1, 'tan'], [1, 'atan'], [1, 'tanh'], [2, 'asin_acos'],
      [1, 'sinh_cosh'], [1, 'atan2'], [1, 'constant']]);
    if (fn === 'exact') return this.exactMath(2);
    const approx = (q, s) => expr(q, s, 'double', { approx: true });
    const a = this.mathArgument(2, true);
    const notNan = (x) => (x.kind === 'double' ? ` AND NOT isnan(${x.s})` : '');
    switch (fn) {
      case 'cbrt': case 'exp': case 'sin': case 'cos': case 'tan': case 'atan': case 'tanh':
        return approx(`${fn}(${a.q})`, `${fn}(${a.s})`);
      case 'log':
        return approx(`log(${a.q})`, `(CASE WHEN (${a.s}) <= 0 THEN NULL ELSE ln(${a.s}) END)`);
      case 'log10':
        return approx(`log10(${a.q})`, `(CASE WHEN (${a.s}) <= 0 THEN NULL ELSE log10(${a.s}) END)`);
      case 'log_base': {
        const base = rng.chance(0.7) ? expr(rng.pick(['2', '10', '0.5', '3', '1', '1.5']), null, 'decimal')
                                     : this.mathArgument(1);
        const bs = base.s ?? base.q;
        return approx(`log(${base.q}, ${a.q})`,
                      `(CASE WHEN (${bs}) <= 0 OR (${bs}) = 1 OR (${a.s}) <= 0 THEN NULL ELSE log(${bs}, ${a.s}) END)`);
      }
      case 'pow': {
        const e = rng.chance(0.8) ? expr(rng.pick(['2', '3', '0.5', '-1', '0', '1.5', '-0.5']), null, 'decimal')
                                  : this.mathArgument(1);
        const es = e.s ?? e.q;
        return approx(`pow(${a.q}, ${e.q})`,
                      `(CASE WHEN isfinite(pow(${a.s}, ${es})) THEN pow(${a.s}, ${es}) ELSE NULL END)`);
      }
      case 'asin_acos': {
        const g = rng.pick(['asin', 'acos']);
        // Mostly a value in [-1, 1] (a sine or a tanh), else the number itself (mostly outside).
        const x = rng.chance(0.7)
          ? (() => { const h = rng.pick(['sin', 'tanh']); return expr(`${h}(${a.q})`, `${h}(${a.s})`, 'double'); })()
          : a;
        return approx(`${g}(${x.q})`, `(CASE WHEN abs(${x.s}) > 1${notNan(x)} THEN NULL ELSE ${g}(${x.s}) END)`);
      }
      case 'sinh_cosh': {
        const g = rng.pick(['sinh', 'cosh']);
        return approx(`${g}(${a.q})`, `(CASE WHEN isfinite(${g}(${a.s})) THEN ${g}(${a.s}) ELSE NULL END)`);
      }
      case 'atan2': {
        const x = this.mathArgument(1, true);
        return approx(`atan2(${a.q}, ${x.q})`, `atan2(${a.s}, ${x.s})`);
      }
      default: {
        // PI(), TAU() and E() times a number.
        const [q, s] = rng.pick([['pi()', 'pi()'], ['tau()', '(2 * pi())'], ['e()', 'exp(1)']]);
        return approx(`(${a.q} * ${q})`, `((${a.s}) * ${s})`);
      }
    }
  }

  freshName() {
    return `e${this.evalCount++}`;
  }
}

// ---- Pipelines ----------------------------------------------------------------

/// One aggregate: { q, s, kind, tolerance } where tolerance is 'exact',
/// 'relative' (SUM of doubles, any AVG: 1e-9) or 'zero-sign' (MIN/MAX of
/// doubles: -0.0 and 0.0 are equal and either may win).
function aggregate(b) {
  const rng = b.rng;
  const fn = rng.weighted([[3, 'COUNT(*)'], [2, 'COUNT'], [2, 'COUNT_DISTINCT'], [3, 'MIN'],
    [3, 'MAX'], [4, 'SUM'], [3, 'AVG'], [4, 'statistic'], [2, 'list']]);
  if (fn === 'statistic') return statisticAggregate(b);
  if (fn === 'list') return listAggregate(b);
  if (fn === 'COUNT(*)') return { q: 'COUNT(*)', s: 'count(*)', kind: 'int64', tolerance: 'exact' };
  if (fn === 'COUNT' || fn === 'COUNT_DISTINCT') {
    // COUNT_DISTINCT of an `approx` column would count values whose last bits may differ.
    const c = colRef(rng.pick(fn === 'COUNT' ? b.schema : b.schema.filter((x) => !x.approx)));
    return fn === 'COUNT'
      ? { q: `COUNT(${c.q})`, s: `count(${c.s})`, kind: 'int64', tolerance: 'exact' }
      : { q: `COUNT_DISTINCT(${c.q})`, s: `count(DISTINCT ${c.s})`, kind: 'int64', tolerance: 'exact' };
  }
  if (fn === 'MIN' || fn === 'MAX') {
    const arg = rng.chance(0.75) ? colRef(rng.pick(b.columns((x) => ORDERABLE.includes(x.kind))))
                                 : rng.chance(0.5) ? b.numeric(1) : b.stringExpr(1);
    return { q: `${fn}(${arg.q})`, s: `${fn.toLowerCase()}(${arg.s})`, kind: arg.kind, scale: arg.scale,
             tolerance: arg.kind === 'double' ? (arg.approx ? 'relative' : 'zero-sign') : 'exact',
             extreme: arg.extreme };
  }
  // SUM of an extreme column only in the overflow queries; AVG sums in 128 bits
  // (quarry's Int128, DuckDB's HUGEINT) and cannot overflow.
  const pool = fn === 'SUM' ? b.plain((x) => isNumeric(x.kind)) : b.columns((x) => isNumeric(x.kind));
  const arg = rng.chance(0.7) ? colRef(rng.pick(pool)) : b.numeric(1);
  const tolerance = fn === 'AVG' || arg.kind === 'double' ? 'relative' : 'exact';
  // "SUM of integers is int64 with overflow an InvalidArgument" (ES|QL's long;
  // docs/ARCHITECTURE.md, Aggregates): DuckDB's is HUGEINT.
  const type = fn === 'SUM' && isInteger(arg.kind) ? 'int64' : undefined;
  return { q: `${fn}(${arg.q})`, s: `${fn.toLowerCase()}(${arg.s})`,
           kind: fn === 'AVG' ? 'double' : fn === 'SUM' && isInteger(arg.kind) ? 'int64' : arg.kind,
           tolerance, type };
}

/// A STATS item from aggregate `a`: mostly `a` itself; sometimes `a` with a filter
/// of its own (ES|QL's `AGG(x) WHERE cond`, DuckDB's `agg(x) FILTER (WHERE cond)`),
/// or an expression over aggregates (ES|QL's "expression that computes an
/// aggregated value": `COUNT(*) - COUNT(x)`, `a IS NULL`, `AVG(n) * 2`).
function statsItem(b, a) {
  const rng = b.rng;
  const form = rng.weighted([[16, 'plain'], [2, 'filter'], [2, 'expression']]);
  // A filter attaches to one aggregate call of DuckDB's SQL (count, min, max, sum, avg).
  if (form === 'filter' && !/^(count|min|max|sum|avg)\((?!.*\bFILTER\b)/.test(a.s)) return a;
  if (form === 'filter') {
    b.features.add('stats_filter');
    const p = b.predicate(1);
    return { ...a, q: `${a.q} WHERE ${p.q}`, s: `${a.s} FILTER (WHERE ${p.s})` };
  }
  if (form === 'expression') {
    b.features.add('stats_expression');
    // COUNT_DISTINCT of an `approx` column would count values whose last bits may differ.
    const c = colRef(rng.pick(b.schema.filter((x) => !x.approx)));
    const n = colRef(rng.pick(b.columns((x) => isNumeric(x.kind) && x.kind !== 'uint64')));
    return rng.pick([
      () => ({ q: `COUNT(*) - COUNT(${c.q})`, s: `count(*) - count(${c.s})`, kind: 'int64', tolerance: 'exact' }),
      () => ({ q: `COUNT_DISTINCT(${c.q}) * 2 + COUNT(*)`, s: `count(DISTINCT ${c.s}) * 2 + count(*)`,
               kind: 'int64', tolerance: 'exact' }),
      () => ({ q: `${a.q} IS NULL`, s: `(${a.s}) IS NULL`, kind: 'boolean', tolerance: 'exact' }),
      () => ({ q: `AVG(${n.q}) * 2`, s: `avg(${n.s}) * 2`, kind: 'double', tolerance: 'relative' }),
    ])();
  }
  return a;
}

// PERCENTILE's p, and p / 100 written as DuckDB reads it exactly (the engine
// computes the same double from p's decimal digits).
const PERCENTILES = [['0', '0'], ['1', '0.01'], ['10', '0.1'], ['12.5', '0.125'], ['25', '0.25'], ['33', '0.33'],
  ['50', '0.5'], ['75', '0.75'], ['90', '0.9'], ['99.9', '0.999'], ['100', '1']];
// The small integer columns: their products and sums are exact in doubles, in any
// order, so WEIGHTED_AVG over them is exact in both engines.
const SMALL_INTEGERS = ['i32', 'sparse', 'rg_i64'];

/// MEDIAN, PERCENTILE, MEDIAN_ABSOLUTE_DEVIATION, STD_DEV, VARIANCE or
/// WEIGHTED_AVG: a double. The quantiles are exact in both engines (the same
/// doubles in the same order, interpolated by the same formula): compared bit for
/// bit but for the sign of a zero (which of -0.0 and 0.0 sorts first is neither's
/// promise); their decimals are d9 and d18, whose conversion to a double is one
/// exact division in both. STD_DEV and VARIANCE read no double but g64 (f64 and
/// doubles computed from it have NaN): DuckDB refuses a result that is not finite
/// ("VARPOP is out of range"), where quarry gives NaN. WEIGHTED_AVG reads the
/// small integer columns, whose products and sums are exact in doubles.
function statisticAggregate(b) {
  const rng = b.rng;
  let fn = rng.pick(['MEDIAN', 'PERCENTILE', 'MEDIAN_ABSOLUTE_DEVIATION', 'STD_DEV', 'VARIANCE', 'WEIGHTED_AVG']);
  const small = b.plain((x) => SMALL_INTEGERS.includes(x.name));
  if (fn === 'WEIGHTED_AVG' && small.length === 0) fn = 'MEDIAN';
  b.features.add(fn.toLowerCase());
  const asDouble = (x) => `CAST(${x.s} AS DOUBLE)`;
  const shortDecimal = (x) => x.kind !== 'decimal' || x.name === 'd9' || x.name === 'd18';
  if (fn === 'STD_DEV' || fn === 'VARIANCE') {
    const c = colRef(rng.pick(b.plain((x) => isNumeric(x.kind) && (x.kind !== 'double' || x.name === 'g64'))));
    return { q: `${fn}(${c.q})`, s: `${fn === 'STD_DEV' ? 'stddev_pop' : 'var_pop'}(${c.s})`, kind: 'double',
             tolerance: 'relative' };
  }
  if (fn === 'WEIGHTED_AVG') {
    const x = colRef(rng.pick(small));
    const w = colRef(rng.pick(small));
    return { q: `WEIGHTED_AVG(${x.q}, ${w.q})`, s: `(sum(${asDouble(x)} * ${asDouble(w)}) / sum(${asDouble(w)}))`,
             kind: 'double', tolerance: 'relative' };
  }
  let arg = rng.chance(0.3) ? b.numeric(1) : null;
  if (arg === null || arg.kind === 'decimal') {
    arg = colRef(rng.pick(b.columns((x) => isNumeric(x.kind) && !x.approx && shortDecimal(x))));
  }
  if (fn === 'MEDIAN_ABSOLUTE_DEVIATION') {
    return { q: `${fn}(${arg.q})`, s: `mad(${asDouble(arg)})`, kind: 'double', tolerance: 'zero-sign' };
  }
  const [p, q] = fn === 'MEDIAN' ? [null, '0.5'] : rng.pick(PERCENTILES);
  return { q: p === null ? `MEDIAN(${arg.q})` : `PERCENTILE(${arg.q}, ${p})`,
           s: `quantile_cont(${asDouble(arg)}, ${q})`, kind: 'double', tolerance: 'zero-sign' };
}

/// VALUES or TOP of a column: a list, compared element by element. Doubles stay
/// out: -0.0 and 0.0 are one value to both engines, and which of the two a list
/// shows is neither's promise. A list column takes no part in later commands
/// (a COUNT of it would count its elements in quarry, its rows in DuckDB).
function listAggregate(b) {
  const rng = b.rng;
  const c = colRef(rng.pick(b.columns((x) => ORDERABLE.includes(x.kind) && x.kind !== 'double' && !x.approx)));
  const kept = `list(${c.s}) FILTER (WHERE ${c.s} IS NOT NULL)`;
  if (rng.chance(0.5)) {
    b.features.add('values');
    return { q: `VALUES(${c.q})`, s: `list_sort(list(DISTINCT ${c.s}) FILTER (WHERE ${c.s} IS NOT NULL))`,
             kind: 'list', tolerance: 'exact' };
  }
  b.features.add('top');
  const n = rng.int(1, 6);
  const order = rng.pick(['', 'asc', 'desc', 'DESC']);
  return { q: `TOP(${c.q}, ${n}${order ? `, "${order}"` : ''})`,
           s: `list_slice(list_sort(${kept}, '${order.toLowerCase() === 'desc' ? 'DESC' : 'ASC'}'), 1, ${n})`,
           kind: 'list', tolerance: 'exact' };
}

/// The source of a query: typed Parquet files (a glob, all, some), the typed files
/// and extra-0.parquet by name (union_by_name: a 5th file of a differing schema),
/// or the ORC twins of the typed files (quarry reads ORC, DuckDB the Parquet
/// twins). Returns { q, s, columns (the schema), features, maxId }.
function sourceClause(rng, files, dir) {
  const form = rng.weighted([[3, 'glob'], [3, 'all'], [1, 'some'], [1.2, 'union'], [1.2, 'orc']]);
  const typed = files.typed;
  if (form === 'union') {
    const quarryFiles = rng.chance(0.5) ? [`${dir}/typed-*.parquet`, ...files.extra]
                                        : [...typed, ...files.extra];
    const withClause = rng.pick([' WITH {"schema_resolution": "union_by_name"}',
      ' WITH {"format": "parquet", "schema_resolution": "union_by_name"}']);
    return {
      q: `FROM ${quarryFiles.map(quarryString).join(', ')}${withClause}`,
      s: `read_parquet([${[...typed, ...files.extra].map(sqlString).join(', ')}], union_by_name = true)`,
      columns: UNION_COLUMNS, features: ['union_by_name'], maxId: kTypedRows + kExtraRows,
    };
  }
  if (form === 'orc') {
    // The ORC twins' paths are fixed by the Parquet ones (dataset.mjs), written or
    // not (without chDB the runner leaves these queries out).
    const twins = typed.map((p) => p.replace(/\.parquet$/, '.orc'));
    const some = rng.chance(0.3) ? rng.sample([...typed.keys()], rng.int(1, typed.length - 1)).sort() : null;
    const quarryFiles = some ? some.map((k) => twins[k]) : rng.chance(0.5) ? [`${dir}/typed-*.orc`] : twins;
    const sqlFiles = some ? some.map((k) => typed[k]) : typed;
    const withClause = rng.weighted([[3, ''], [1, ' WITH {"format": "orc"}']]);
    return {
      q: `FROM ${quarryFiles.map(quarryString).join(', ')}${withClause}`,
      s: `(SELECT ${ORC_COLUMNS.map((c) => sqlName(c.name)).join(', ')} FROM read_parquet([${sqlFiles.map(sqlString).join(', ')}]))`,
      columns: ORC_COLUMNS, features: ['orc'], maxId: kTypedRows,
    };
  }
  let quarryFiles;
  let sqlFiles;
  if (form === 'glob') {
    quarryFiles = [`${dir}/typed-*.parquet`];
    sqlFiles = typed;
  } else if (form === 'all') {
    quarryFiles = typed;
    sqlFiles = typed;
  } else {
    const some = rng.sample(typed, rng.int(1, typed.length - 1)).sort();
    quarryFiles = some;
    sqlFiles = some;
  }
  // union_by_name over files of one schema: the same columns.
  const withClause = rng.weighted([[6, ''], [1, ' WITH {"format": "parquet"}'],
    [1, ' WITH {"format": "parquet", "schema_resolution": "union_by_name"}']]);
  return {
    q: `FROM ${quarryFiles.map(quarryString).join(', ')}${withClause}`,
    s: `read_parquet([${sqlFiles.map(sqlString).join(', ')}])`,
    columns: COLUMNS, features: [], maxId: kTypedRows,
  };
}

const sortText = (key) => ({
  q: `${quarryName(key.name)}${key.asc ? (key.implicitAsc ? '' : ' ASC') : ' DESC'}${key.explicitNulls ? (key.nullsFirst ? ' NULLS FIRST' : ' NULLS LAST') : ''}`,
  s: `${sqlName(key.name)} ${key.asc ? 'ASC' : 'DESC'} ${key.nullsFirst ? 'NULLS FIRST' : 'NULLS LAST'}`,
});

/// A sort key on column `name`: random direction (ASC sometimes left to the
/// default); the null order written out sometimes, else the default (ASC ->
/// NULLS LAST, DESC -> NULLS FIRST).
function sortKey(rng, name) {
  const asc = rng.chance(0.6);
  const explicitNulls = rng.chance(0.3);
  const nullsFirst = explicitNulls ? rng.chance(0.5) : !asc;
  const implicitAsc = asc && rng.chance(0.4);
  return { name, asc, implicitAsc, explicitNulls, nullsFirst };
}


// ---- Overflow ------------------------------------------------------------------
//
// "extreme values and overflow (the expected error or widening, as ES|QL and
// DuckDB define it)". Integer +, -, *, / and negation overflow is null in quarry,
// with a warning ("integer overflow: 2147483647 + 1", as ES|QL's), and an error
// in DuckDB ("Out of Range Error: Overflow in addition of INT64"), whose TRY()
// makes it the same null: the SQL wraps the expression in try(). int32
// arithmetic stays int32 in both (no widening: `i32 * i32` overflows), except
// over the union with extra-0.parquet, where i32 is int64 (union_by_name widens
// it) and the same expression does not overflow. SUM of integers is int64 in
// quarry with overflow an error (ES|QL's long), a HUGEINT in DuckDB: the SQL
// casts DuckDB's sum to BIGINT, which fails where quarry's fails (big is
// non-negative, so a partial sum overflows exactly when the whole does). Left out
// where the two differ by design: `MIN % -1` (quarry 0, as C++ defines it and
// DuckDB's % of other values; DuckDB raises).
//
// An overflow query evaluates its expression on every row its WHERE keeps and
// aggregates it, so that neither engine may skip the rows (a LIMIT, or an EVAL
// column no later command reads, would let one of them evaluate fewer rows).
// When DuckDB raises (a SUM), quarry must fail with kQuarryOverflow; when it does
// not, the values are compared (the overflowing rows null in both).
export const kDuckdbOverflow = 'Overflow|out of range';
export const kQuarryOverflow = 'Overflow in';

function overflowValue(rng, b) {
  const i32 = b.schema.find((c) => c.name === 'i32').kind;
  return rng.pick([
    () => ['big + big', '("big" + "big")', 'int64'],
    () => {
      const k = rng.pick([2, 3, -2, -9]);
      return [`big * ${k}`, `("big" * ${k})`, 'int64'];
    },
    () => {
      const k = rng.pick(['1', '1000', '4611686018427387904', '9223372036854775807']);
      return [`big + ${k}`, `("big" + ${k})`, 'int64'];
    },
    () => ['ext + 1', '("ext" + 1)', 'int64'],
    () => ['ext - 1', '("ext" - 1)', 'int64'],
    () => {
      const k = rng.pick([2, -1, -2]);
      return [`ext * ${k}`, `("ext" * ${k})`, 'int64'];
    },
    () => ['-ext', '(-"ext")', 'int64'],
    () => ['abs(ext)', 'abs("ext")', 'int64'],
    () => ['ext / -1', '("ext" // -1)', 'int64'],
    () => ['i32 * i32', '("i32" * "i32")', i32],
    () => ['i32 + 2147483647', '("i32" + 2147483647)', i32],
  ])();
}

/// A WHERE that keeps only rows on which overflowValue's expressions cannot
/// overflow (so that both engines answer), or null.
function overflowGuard(rng) {
  return rng.pick([
    () => ['big < 1000', '("big" < 1000)'],
    () => ['ext > -1000 AND ext < 1000', '("ext" > -1000 AND "ext" < 1000)'],
    () => ['i32 > -40000 AND i32 < 40000 AND big < 1000', '("i32" > -40000 AND "i32" < 40000 AND "big" < 1000)'],
  ])();
}

// ---- DISSECT and GROK ---------------------------------------------------------------
//
// DISSECT `%{p}d%{q}` (d one character): p is the text before the first d, q the
// rest after it, except that a d right after the first is an empty q (Elastic's
// dissect gives the next key "" for a repeated delimiter); with `%{p->}` the
// repeats are padding, skipped. No d, an empty or a null value: both null.
// GROK: the named patterns' expressions as quarry's table writes them, matched by
// DuckDB's regexp_matches / regexp_extract, which are RE2's too (searched, not
// anchored); no match is null; `:int` is TRY_CAST(... AS INTEGER), which is null
// where quarry's conversion is (past int32).
const GROK_EXPRESSIONS = { INT: '[+-]?[0-9]+', WORD: '\\b\\w+\\b', NOTSPACE: '\\S+' };
const regexEscape = (d) => d.replace(/[\\^$.|?*+()[\]{}]/g, (c) => `\\${c}`);

function extractStep(rng, c, b) {
  const p = b.freshName();
  const q = b.freshName();
  if (rng.chance(0.5)) {
    const d = rng.pick(SPLIT_DELIMITERS);
    const padding = rng.chance(0.3);
    const i = `strpos(${c.s}, ${sqlString(d)})`;
    const rest = `substring(${c.s}, ${i} + 1)`;
    const matched = `${c.s} <> '' AND ${i} > 0`;
    const qValue = padding ? `ltrim(${rest}, ${sqlString(d)})`
                           : `CASE WHEN starts_with(${rest}, ${sqlString(d)}) THEN '' ELSE ${rest} END`;
    return {
      q: `DISSECT ${c.q} ${quarryString(`%{${p}${padding ? '->' : ''}}${d}%{${q}}`)}`,
      columns: [{ name: p, kind: 'string', s: `CASE WHEN ${matched} THEN substring(${c.s}, 1, ${i} - 1) END` },
                { name: q, kind: 'string', s: `CASE WHEN ${matched} THEN ${qValue} END` }],
      feature: 'dissect',
    };
  }
  if (rng.chance(0.5)) {
    const syntax = rng.pick(Object.keys(GROK_EXPRESSIONS));
    const re = GROK_EXPRESSIONS[syntax];
    const typed = syntax === 'INT' && rng.chance(0.6);
    const extracted = `regexp_extract(${c.s}, ${sqlString(re)})`;
    return {
      q: `GROK ${c.q} ${quarryString(`%{${syntax}:${p}${typed ? ':int' : ''}}`)}`,
      columns: [{ name: p, kind: typed ? 'int32' : 'string',
                  s: `CASE WHEN regexp_matches(${c.s}, ${sqlString(re)}) THEN ` +
                     `${typed ? `TRY_CAST(${extracted} AS INTEGER)` : extracted} END` }],
      feature: 'grok',
    };
  }
  // Two captures around a character: DATA (lazy) before it, GREEDYDATA after.
  const d = rng.pick(SPLIT_DELIMITERS);
  const re = `(.*?)${regexEscape(d)}(.*)`;
  const group = (k) => `CASE WHEN regexp_matches(${c.s}, ${sqlString(re)}) THEN ` +
      `regexp_extract(${c.s}, ${sqlString(re)}, ${k}) END`;
  return {
    q: `GROK ${c.q} ${quarryString(`%{DATA:${p}}${regexEscape(d)}%{GREEDYDATA:${q}}`)}`,
    columns: [{ name: p, kind: 'string', s: group(1) }, { name: q, kind: 'string', s: group(2) }],
    feature: 'grok',
  };
}

// ---- Pipelines -------------------------------------------------------------------

/// Generates one (query, SQL) pair.
function generateOne(rng, files, dir) {
  const source = sourceClause(rng, files, dir);
  const b = new QueryBuilder(rng, source.columns);
  for (const f of source.features) b.features.add(f);
  const parts = [source.q];
  let sql = `SELECT * FROM ${source.s}`;
  const wrap = (select) => { sql = `${select} FROM (${sql}) t`; };
  const where = (q, s) => {
    parts.push(`WHERE ${q}`);
    wrap('SELECT *');
    sql += ` WHERE ${s}`;
  };

  const tail = rng.weighted([[2, 'rows'], [3, 'topn'], [2, 'stats'], [4, 'grouped'], [1.1, 'overflow']]);
  let expectError = null;
  // A row result without a filter is up to 20,000 rows: mostly filtered, so the
  // run stays short.
  if (rng.chance(tail === 'rows' ? 0.9 : tail === 'overflow' ? 0.5 : 0.7)) {
    const p = tail === 'overflow' && rng.chance(0.5) ? overflowGuard(rng) : null;
    if (p) where(p[0], p[1]);
    else {
      const q = b.predicate(2);
      where(q.q, q.s);
    }
  }
  const evals = [];
  if (tail !== 'overflow' && rng.chance(0.45)) {
    const n = rng.int(1, 3);
    const assignments = [];
    for (let i = 0; i < n; i++) {
      const value = b.evalValue();
      const name = b.freshName();
      assignments.push(`${name} = ${value.q}`);
      wrap(`SELECT *, ${value.s} AS ${sqlName(name)}`);
      const column = { name, kind: value.kind, scale: value.scale, approx: value.approx };
      b.schema.push(column);
      evals.push(column);
    }
    parts.push(`EVAL ${assignments.join(', ')}`);
    const exactEvals = evals.filter((c) => !c.approx);
    if (exactEvals.length && rng.chance(0.3)) {
      const target = rng.pick(exactEvals);
      const lit = literalFor(rng, target.kind === 'decimal'
          ? { kind: 'decimal', scale: Math.min(target.scale, 4) } : target);
      if (lit) {
        const sqlOp = rng.pick(target.kind === 'boolean' ? ['=', '<>'] : ['<', '>=', '<>']);
        const op = { '=': '==', '<>': '!=' }[sqlOp] ?? sqlOp;
        where(`${target.name} ${op} ${lit.q}`, `${sqlName(target.name)} ${sqlOp} ${lit.s}`);
      } else if (target.kind === 'boolean') {
        where(target.name, sqlName(target.name));
      }
    }
  }

  // MV_EXPAND of a SPLIT: one row per piece. ES|QL keeps one row with null for a
  // null or empty list; DuckDB's UNNEST drops such a row, so the SQL unnests
  // [NULL] there. A side generator decides, so that the queries without an
  // MV_EXPAND are drawn as before it existed.
  let expanded = null;
  const side = new Random(rng.state ^ 0x2545f491);
  if (tail !== 'overflow' && side.chance(0.12)) {
    const strings = b.plain((c) => c.kind === 'string');
    if (strings.length) {
      const c = colRef(side.pick(strings));
      const d = side.pick(SPLIT_DELIMITERS);
      const name = b.freshName();
      const list = `string_split(${c.s}, ${sqlString(d)})`;
      parts.push(`EVAL ${name} = split(${c.q}, ${quarryString(d)})`);
      parts.push(`MV_EXPAND ${name}`);
      wrap(`SELECT *, unnest(CASE WHEN ${list} IS NULL OR len(${list}) = 0 THEN [NULL::VARCHAR] ` +
           `ELSE ${list} END) AS ${sqlName(name)}`);
      expanded = { name, kind: 'string', values: (c.values ?? []).flatMap((v) => v.split(d)) };
      b.schema.push(expanded);
      b.features.add('mv_expand');
    }
  }

  // DISSECT or GROK of a string column, drawn by a side generator as MV_EXPAND is.
  const extract = new Random(rng.state ^ 0x68e31da4);
  if (tail !== 'overflow' && extract.chance(0.15)) {
    const strings = b.plain((c) => c.kind === 'string');
    if (strings.length) {
      const step = extractStep(extract, colRef(extract.pick(strings)), b);
      parts.push(step.q);
      wrap(`SELECT *, ${step.columns.map((c) => `${c.s} AS ${sqlName(c.name)}`).join(', ')}`);
      for (const c of step.columns) b.schema.push({ name: c.name, kind: c.kind });
      b.features.add(step.feature);
    }
  }

  // LOOKUP JOIN of dataset.mjs's lookup file on s_low, drawn by a side generator
  // as MV_EXPAND is. ES|QL's left join is SQL's LEFT JOIN: a null key matches
  // nothing, a key of several file rows gives a row each (compared as a multiset,
  // or in order with the file's unique lk_row as the last sort key).
  let joined = false;
  const lookupSide = new Random(rng.state ^ 0x5bd1e995);
  if (tail !== 'overflow' && files.lookup && lookupSide.chance(0.1) &&
      b.schema.some((c) => c.name === 's_low' && c.kind === 'string')) {
    parts.push(`LOOKUP JOIN "${files.lookup}" ON s_low`);
    sql = `SELECT t.*, l."lk_row", l."lk_s" FROM (${sql}) t ` +
        `LEFT JOIN read_parquet(${sqlString(files.lookup)}) l ON t."s_low" = l."s_low"`;
    b.schema.push({ name: 'lk_row', kind: 'int32' }, { name: 'lk_s', kind: 'string' });
    joined = true;
    b.features.add('lookup_join');
  }

  let ordered = false;
  let sortKeys = [];
  let limitZero = false;
  let tolerance = {};
  // The engine's type of a column where the language defines another than
  // DuckDB's (result_compare.mjs maps DuckDB's otherwise).
  let types = {};

  if (tail === 'rows') {
    if (rng.chance(0.8)) {
      // A range of ids: a short result, and (ids are split into ranges per file)
      // files a pruning engine can skip.
      const from = rng.int(0, source.maxId - 1000);
      const to = from + rng.weighted([[3, rng.int(1, 300)], [2, rng.int(300, 3000)]]);
      where(`id >= ${from} AND id < ${to}`, `"id" >= ${from} AND "id" < ${to}`);
    }
    // Always a KEEP: whole rows of 20,000-row results would make the run slow. An
    // EVAL column mostly among them: what it computes is then compared.
    const keep = rng.sample(b.schema, rng.int(1, 4));
    if (evals.length && !keep.some((c) => evals.includes(c)) && rng.chance(0.6)) keep.push(rng.pick(evals));
    parts.push(`KEEP ${keep.map((c) => c.name).join(', ')}`);
    wrap(`SELECT ${keep.map((c) => sqlName(c.name)).join(', ')}`);
    b.schema = keep;
    if (b.schema.length > 1 && rng.chance(0.3)) {
      const drop = rng.pick(b.schema);
      parts.push(`DROP ${drop.name}`);
      wrap(`SELECT * EXCLUDE (${sqlName(drop.name)})`);
      b.schema = b.schema.filter((c) => c !== drop);
    }
    if (rng.chance(0.3)) {
      const from = rng.pick(b.schema);
      const to = `r_${from.name}`;
      parts.push(`RENAME ${from.name} AS ${to}`);
      wrap(`SELECT * RENAME (${sqlName(from.name)} AS ${sqlName(to)})`);
      if (from.approx) tolerance[to] = 'relative';
    }
  } else if (tail === 'topn') {
    const sortable = b.columns((c) => ORDERABLE.includes(c.kind) && c.name !== 'id' && !c.approx);
    const keys = rng.sample(sortable, rng.int(0, 2)).map((c) => sortKey(rng, c.name));
    keys.push(sortKey(rng, 'id'));  // unique: the order is total
    // After MV_EXPAND, id and the piece: rows equal in both are equal in all.
    if (expanded) keys.push(sortKey(rng, expanded.name));
    // After LOOKUP JOIN, id and the file's row: likewise.
    if (joined) keys.push(sortKey(rng, 'lk_row'));
    // LIMIT 0 rarely: an empty result checks names and types only (engine_queries.mjs
    // caps the corpus's empty results).
    const limit = rng.weighted([[0.2, 0], [6, rng.int(1, 30)], [2, rng.int(100, 3000)]]);
    parts.push(`SORT ${keys.map((k) => sortText(k).q).join(', ')}`);
    parts.push(`LIMIT ${limit}`);
    let select = '*';
    if (rng.chance(0.6)) {
      const keep = rng.sample(b.schema, rng.int(1, 5));
      parts.push(`KEEP ${keep.map((c) => c.name).join(', ')}`);
      select = keep.map((c) => sqlName(c.name)).join(', ');
    }
    sql = `SELECT ${select} FROM (${sql}) t ORDER BY ${keys.map((k) => sortText(k).s).join(', ')} LIMIT ${limit}`;
    ordered = true;
    sortKeys = keys.map((k) => k.name);
    limitZero = limit === 0;
  } else {
    // stats, grouped or overflow: a STATS, then maybe commands over its columns.
    let aggs;
    if (tail === 'overflow') {
      b.features.add('overflow');
      expectError = { duckdb: kDuckdbOverflow, quarry: kQuarryOverflow };
      if (b.schema.some((c) => c.name === 'big') && rng.chance(0.3)) {
        aggs = [{ q: 'SUM(big)', s: 'CAST(sum("big") AS BIGINT)', kind: 'int64', tolerance: 'exact',
                  type: 'int64' }];
        b.features.add('overflow_sum');
      } else {
        const [q, s, kind] = overflowValue(rng, b);
        parts.push(`EVAL o = ${q}`);
        wrap(`SELECT *, try(${s}) AS "o"`);
        aggs = rng.sample([
          { q: 'MAX(o)', s: 'max("o")', kind, tolerance: 'exact' },
          { q: 'MIN(o)', s: 'min("o")', kind, tolerance: 'exact' },
          { q: 'SUM(o)', s: 'CAST(sum("o") AS BIGINT)', kind: 'int64', tolerance: 'exact', type: 'int64' },
          { q: 'COUNT(o)', s: 'count("o")', kind: 'int64', tolerance: 'exact' },
        ], rng.int(1, 3));
        // SUM(o) of values of both signs may overflow on one order of its terms and
        // not another: only MIN, MAX and COUNT read o then.
        if (!q.startsWith('big') || q.includes('*')) aggs = aggs.filter((a) => a.q !== 'SUM(o)');
        if (aggs.length === 0) aggs = [{ q: 'MAX(o)', s: 'max("o")', kind, tolerance: 'exact' }];
      }
      if (rng.chance(0.3)) aggs.push({ q: 'COUNT(*)', s: 'count(*)', kind: 'int64', tolerance: 'exact' });
    } else {
      aggs = Array.from({ length: rng.int(1, 4) }, () => statsItem(b, aggregate(b)));
    }
    // Mostly named; sometimes a simple call without a name, whose column is
    // then named by its text as written (`MAX(i32)`, `COUNT(*)`).
    const unnamed = aggs.map((a) => /^[A-Z_]+\([A-Za-z0-9_*]+\)$/.test(a.q) && rng.chance(0.2));
    const names = aggs.map((a, i) => (unnamed[i] ? a.q : `a${i}`));
    if (new Set(names).size !== names.length) names.forEach((n, i) => { names[i] = `a${i}`; unnamed[i] = false; });
    let groups = [];
    if (tail === 'grouped' || (tail === 'overflow' && rng.chance(0.4))) {
      const lowCols = b.columns((c) => c.low);
      const chosen = rng.sample(lowCols, rng.int(1, 2));
      groups = chosen.map((c) => ({ name: c.name, q: c.name, s: sqlName(c.name), kind: c.kind, values: c.values }));
      if (tail === 'grouped' && rng.chance(0.25)) {
        // A computed group: BY g = <expression of a few distinct values>.
        const i32 = b.schema.find((c) => c.name === 'i32').kind;
        const computed = rng.pick([
          () => expr('date_extract("year", day)', "date_part('year', \"day\")", 'int64'),
          () => expr('date_trunc("year", day)', "CAST(date_trunc('year', \"day\") AS DATE)", 'date'),
          () => expr('length(s_high)', 'length("s_high")', 'int32'),
          () => expr('i32 % 7', '("i32" % 7)', i32),
          () => expr('to_upper(s_low)', 'upper("s_low")', 'string'),
          () => expr('length(s_utf8)', 'length("s_utf8")', 'int64'),
          () => { b.features.add('bucket_number'); return expr('bucket(i32, 250000000)', 'floor("i32" / 250000000) * 250000000', 'double'); },
          // A constant key, grouped by the other (planStats): not SQL's positional GROUP BY 1.
          () => { b.features.add('constant_group'); return expr('1', 'CAST(1 AS INTEGER)', 'int32'); },
        ])();
        groups = [...groups.slice(0, 1), { name: 'g', q: `g = ${computed.q}`, s: computed.s, kind: computed.kind }];
      }
    }
    const aggText = aggs.map((a, i) => (unnamed[i] ? a.q : `${names[i]} = ${a.q}`)).join(', ');
    parts.push(`STATS ${aggText}${groups.length ? ` BY ${groups.map((g) => g.q).join(', ')}` : ''}`);
    const selectList = [...aggs.map((a, i) => `${a.s} AS ${sqlName(names[i])}`),
      ...groups.map((g) => `${g.s} AS ${sqlName(g.name)}`)];
    sql = `SELECT ${selectList.join(', ')} FROM (${sql}) t` +
        (groups.length ? ` GROUP BY ${groups.map((g) => g.s).join(', ')}` : '');
    // The STATS's columns: aggregates, then groups.
    let outs = [
      ...aggs.map((a, i) => ({ name: names[i], kind: a.kind, scale: a.scale, tolerance: a.tolerance,
                               type: a.type, extreme: a.extreme || tail === 'overflow', group: false })),
      ...groups.map((g) => ({ name: g.name, kind: g.kind, tolerance: 'exact', group: true, values: g.values })),
    ];
    if (tail !== 'overflow' && !outs.some((o) => o.kind === 'list') && rng.chance(0.5)) {
      const after = afterStats(rng, b, outs, parts, sql);
      outs = after.outs;
      sql = after.sql;
    }
    for (const o of outs) {
      tolerance[o.name] = o.tolerance;
      if (o.type) types[o.name] = o.type;
    }
    const groupNames = outs.filter((o) => o.group).map((o) => o.name);
    if (tail !== 'overflow' && groupNames.length && rng.chance(0.4)) {
      // Sorted by every group (unique per row): a total order. Sometimes first
      // by an exact aggregate.
      const keys = [];
      const exact = outs.filter((o) => !o.group && o.tolerance === 'exact' && o.kind !== 'double' && o.kind !== 'list')
          .map((o) => o.name);
      if (exact.length && rng.chance(0.4)) keys.push(sortKey(rng, rng.pick(exact)));
      for (const g of rng.sample(groupNames, groupNames.length)) keys.push(sortKey(rng, g));
      const limit = rng.int(1, 40);
      parts.push(`SORT ${keys.map((k) => sortText(k).q).join(', ')}`);
      parts.push(`LIMIT ${limit}`);
      sql = `SELECT * FROM (${sql}) t ORDER BY ${keys.map((k) => sortText(k).s).join(', ')} LIMIT ${limit}`;
      ordered = true;
      sortKeys = keys.map((k) => k.name);
    }
  }
  if (tail === 'rows' || tail === 'topn') {
    // A math function's column (mathValue's `approx`) compares within 1e-9.
    for (const c of evals) if (c.approx) tolerance[c.name] = 'relative';
  }
  const commands = parts.slice(1).map((p) => p.split(' ')[0]);
  for (const c of commands) b.features.add(`command ${c}`);
  const text = parts.slice(1).join(' | ');
  if (/\b(nul|sparse|rg_i64)\b/.test(text)) b.features.add('null_heavy');
  if (/\b(big|ext)\b/.test(text)) b.features.add('extreme');
  if (/\bs_utf8\b/.test(text)) b.features.add('utf8');
  if (limitZero) b.features.add('limit0');
  return { query: parts.join(' | '), sql, ordered, tolerance, types, sortKeys, shape: tail, limitZero,
           expectError, needsOrc: b.features.has('orc'), features: [...b.features].sort() };
}

/// Commands after a STATS over its columns `outs` ([{name, kind, tolerance, type,
/// group, extreme}]): WHERE, EVAL, KEEP, DROP, RENAME over aggregates and groups,
/// and sometimes a second STATS over them ("commands after STATS and repeated
/// STATS"). Group columns are kept and never renamed, so that a SORT by them
/// afterwards is still total. Appends to `parts`; returns { outs, sql }.
function afterStats(rng, b, outs, parts, sql) {
  const wrap = (select) => { sql = `${select} FROM (${sql}) t`; };
  b.features.add('after_stats');
  const exactInt = (o) => isInteger(o.kind) && o.tolerance === 'exact' && !o.extreme;
  let evals = 0;
  for (let n = rng.int(1, 3); n > 0; n--) {
    const command = rng.weighted([[3, 'WHERE'], [3, 'EVAL'], [2, 'KEEP'], [1, 'DROP'], [1, 'RENAME']]);
    if (command === 'WHERE') {
      const o = rng.pick(outs);
      let q;
      let s;
      if (rng.chance(0.25) || (!exactInt(o) && !(o.group && LITERAL_KINDS.includes(o.kind)))) {
        // Mostly IS NOT NULL: a null group or aggregate is one row at most.
        const not = rng.chance(0.7) ? 'NOT ' : '';
        q = `${quarryName(o.name)} IS ${not}NULL`;
        s = `${sqlName(o.name)} IS ${not}NULL`;
      } else {
        // Thresholds most aggregates pass: counts, sums and extremes of these files
        // are mostly past them one way or the other.
        const op = rng.pick(o.kind === 'boolean' ? ['==', '!='] : o.group ? ['!=', '!=', '>', '<='] : ['>', '>=', '<', '!=']);
        const lit = o.group ? literalFor(rng, o)
                            : expr(String(rng.pick(op === '<' ? [100, 1000, 100000] : [-1000, 0, 1, 2, 5])), null, 'int32');
        const sqlOp = { '==': '=', '!=': '<>' }[op] ?? op;
        q = `${quarryName(o.name)} ${op} ${lit.q}`;
        s = `${sqlName(o.name)} ${sqlOp} ${lit.s ?? lit.q}`;
      }
      parts.push(`WHERE ${q}`);
      wrap('SELECT *');
      sql += ` WHERE ${s}`;
    } else if (command === 'EVAL') {
      const ints = outs.filter(exactInt);
      const strings = outs.filter((o) => o.kind === 'string');
      const name = `x${evals++}`;
      let value;
      if (ints.length && (strings.length === 0 || rng.chance(0.7))) {
        const a = rng.pick(ints);
        const c = rng.pick(ints);
        const k = rng.pick([-9, -3, -1, 1, 2, 7]);
        value = rng.pick([
          () => expr(`${quarryName(a.name)} * ${k} + 1`, `(${sqlName(a.name)} * ${k} + 1)`, a.kind),
          () => expr(`${quarryName(a.name)} - ${quarryName(c.name)}`, `(${sqlName(a.name)} - ${sqlName(c.name)})`,
                     a.kind === 'int64' || c.kind === 'int64' ? 'int64' : 'int32'),
          () => expr(`${quarryName(a.name)} / ${k}`, `(${sqlName(a.name)} // ${k})`, a.kind),
        ])();
        // Over a SUM (DuckDB's HUGEINT, quarry's int64) the result is quarry's int64.
        if (a.type === 'int64' || (value.q.includes(' - ') && c.type === 'int64')) value.type = 'int64';
      } else if (strings.length) {
        const a = rng.pick(strings);
        value = rng.chance(0.5)
          ? expr(`length(${quarryName(a.name)})`, `length(${sqlName(a.name)})`, 'int64')
          : expr(`to_upper(${quarryName(a.name)})`, `upper(${sqlName(a.name)})`, 'string');
      } else {
        continue;
      }
      parts.push(`EVAL ${name} = ${value.q}`);
      wrap(`SELECT *, ${value.s} AS ${sqlName(name)}`);
      outs = [...outs, { name, kind: value.kind, tolerance: 'exact', group: false, type: value.type }];
    } else if (command === 'KEEP') {
      const groups = outs.filter((o) => o.group);
      const others = outs.filter((o) => !o.group);
      // Every group, some of the rest, in a random order.
      const chosen = [...groups, ...rng.sample(others, rng.int(groups.length ? 0 : 1, others.length))];
      const final = rng.sample(chosen, chosen.length);
      parts.push(`KEEP ${final.map((o) => quarryName(o.name)).join(', ')}`);
      wrap(`SELECT ${final.map((o) => sqlName(o.name)).join(', ')}`);
      outs = final;
    } else if (command === 'DROP') {
      const droppable = outs.filter((o) => !o.group);
      if (droppable.length === 0 || outs.length < 2) continue;
      const d = rng.pick(droppable);
      parts.push(`DROP ${quarryName(d.name)}`);
      wrap(`SELECT * EXCLUDE (${sqlName(d.name)})`);
      outs = outs.filter((o) => o !== d);
    } else {
      const renamable = outs.filter((o) => !o.group);
      if (renamable.length === 0) continue;
      const r = rng.pick(renamable);
      const to = `r_${r.name.replace(/[^A-Za-z0-9_]/g, '_')}`;
      if (outs.some((o) => o.name === to)) continue;
      parts.push(`RENAME ${quarryName(r.name)} AS ${to}`);
      wrap(`SELECT * RENAME (${sqlName(r.name)} AS ${sqlName(to)})`);
      outs = outs.map((o) => (o === r ? { ...o, name: to } : o));
    }
  }
  if (rng.chance(0.45)) {
    // A second STATS over the first one's columns, grouped by none, one of its
    // groups, or one of its exact integer aggregates (a count as a group).
    b.features.add('repeated_stats');
    const ints = outs.filter(exactInt);
    const orderable = outs.filter((o) => ORDERABLE.includes(o.kind));
    const aggs = [{ q: 'COUNT(*)', s: 'count(*)', kind: 'int64', tolerance: 'exact' }];
    for (let k = rng.int(1, 3); k > 0; k--) {
      const fn = rng.pick(['SUM', 'MIN', 'MAX', 'AVG', 'COUNT', 'COUNT_DISTINCT']);
      if ((fn === 'SUM' || fn === 'AVG') && ints.length) {
        const o = rng.pick(ints);
        aggs.push(fn === 'SUM'
          ? { q: `SUM(${quarryName(o.name)})`, s: `sum(${sqlName(o.name)})`, kind: 'int64', tolerance: 'exact', type: 'int64' }
          : { q: `AVG(${quarryName(o.name)})`, s: `avg(${sqlName(o.name)})`, kind: 'double', tolerance: 'relative' });
      } else if ((fn === 'MIN' || fn === 'MAX') && orderable.length) {
        const o = rng.pick(orderable);
        aggs.push({ q: `${fn}(${quarryName(o.name)})`, s: `${fn.toLowerCase()}(${sqlName(o.name)})`, kind: o.kind,
                    scale: o.scale, extreme: o.extreme, type: o.type,
                    tolerance: o.kind === 'double' ? (o.tolerance === 'exact' ? 'zero-sign' : o.tolerance) : o.tolerance });
      } else if (fn === 'COUNT' || fn === 'COUNT_DISTINCT') {
        const o = rng.pick(outs);
        aggs.push(fn === 'COUNT'
          ? { q: `COUNT(${quarryName(o.name)})`, s: `count(${sqlName(o.name)})`, kind: 'int64', tolerance: 'exact' }
          : { q: `COUNT_DISTINCT(${quarryName(o.name)})`, s: `count(DISTINCT ${sqlName(o.name)})`, kind: 'int64',
              tolerance: o.tolerance === 'exact' ? 'exact' : null });
      }
    }
    // COUNT_DISTINCT of a tolerant column counts values that may differ in their
    // last bits: left out.
    const kept = aggs.filter((a) => a.tolerance !== null);
    const names = kept.map((a, i) => `b${i}`);
    const candidates = [...outs.filter((o) => o.group), ...ints];
    const by = candidates.length && rng.chance(0.7) ? [rng.pick(candidates)] : [];
    parts.push(`STATS ${kept.map((a, i) => `${names[i]} = ${a.q}`).join(', ')}` +
               `${by.length ? ` BY ${by.map((o) => quarryName(o.name)).join(', ')}` : ''}`);
    const selectList = [...kept.map((a, i) => `${a.s} AS ${sqlName(names[i])}`),
      ...by.map((o) => sqlName(o.name))];
    sql = `SELECT ${selectList.join(', ')} FROM (${sql}) t` +
        (by.length ? ` GROUP BY ${by.map((o) => sqlName(o.name)).join(', ')}` : '');
    outs = [...kept.map((a, i) => ({ name: names[i], kind: a.kind, scale: a.scale, tolerance: a.tolerance,
                                     type: a.type, extreme: a.extreme, group: false })),
      ...by.map((o) => ({ ...o, group: true, tolerance: 'exact' }))];
  }
  return { outs, sql };
}

/// Returns query `index` of the corpus of `seed` for the typed `files` (under
/// `dir`): { index, attempt, query, sql, ordered, tolerance: {column:
/// 'exact'|'relative'|'zero-sign'}, types: {column: engine type}, sortKeys, shape,
/// limitZero, expectError ({duckdb, quarry}: regular expressions of the errors
/// both engines may give instead of an answer, or null), needsOrc, features (what
/// the query uses, corpus_statistics.mjs) }. `files` is dataset.mjs's { typed,
/// extra } (the ORC twins' paths follow from the typed ones). Attempt 0 is the
/// query's first draw; a runner that finds its result empty may draw it again
/// with the next attempt (engine_queries.mjs caps empty results).
export function generateQuery({ seed, index, attempt = 0, files, dir }) {
  // One generator per query: query I is the same whatever the count.
  const rng = new Random((seed * 1_000_003 + index + attempt * 0x9e3779b9) >>> 0);
  return { index, attempt, ...generateOne(rng, files, dir) };
}

/// Returns the first draws of `count` queries (generateQuery, attempt 0).
export function generateQueries({ seed, count, files, dir }) {
  return Array.from({ length: count }, (_, index) => generateQuery({ seed, index, files, dir }));
}

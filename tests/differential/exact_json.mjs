// JSON parsed with every number kept as the text quarry wrote: JSON.parse
// would round 64-bit integers and 38-digit decimals to doubles, and quarry's
// JSON writes them as numbers with every digit (json_numbers.h).

/// A JSON number, as written.
export class Num {
  constructor(text) { this.text = text; }
}

/// Parses one JSON document, numbers kept as Num: JSON.parse would round 64-bit
/// integers and 38-digit decimals to doubles.
export function parseJson(text) {
  let i = 0;
  const fail = (what) => { throw new Error(`bad JSON at ${i}: ${what}: ${text.slice(i, i + 40)}`); };
  const ws = () => { while (i < text.length && ' \t\r\n'.includes(text[i])) i++; };
  const expect = (c) => { ws(); if (text[i] !== c) fail(`expected '${c}'`); i++; };
  const string = () => {
    let j = i + 1;
    while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
    if (j >= text.length) fail('unterminated string');
    const s = JSON.parse(text.slice(i, j + 1));
    i = j + 1;
    return s;
  };
  const number = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  const value = () => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const out = Object.create(null);
      ws();
      if (text[i] === '}') { i++; return out; }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('expected a key');
        const key = string();
        expect(':');
        out[key] = value();
        ws();
        if (text[i] === ',') { i++; continue; }
        expect('}');
        return out;
      }
    }
    if (c === '[') {
      i++;
      const out = [];
      ws();
      if (text[i] === ']') { i++; return out; }
      for (;;) {
        out.push(value());
        ws();
        if (text[i] === ',') { i++; continue; }
        expect(']');
        return out;
      }
    }
    if (c === '"') return string();
    for (const [word, v] of [['true', true], ['false', false], ['null', null]]) {
      if (text.startsWith(word, i)) { i += word.length; return v; }
    }
    number.lastIndex = i;
    const m = number.exec(text);
    if (!m) fail('expected a value');
    i = number.lastIndex;
    return new Num(m[0]);
  };
  const out = value();
  ws();
  if (i !== text.length) fail('trailing characters');
  return out;
}

/// Returns `value` with each Num as a JS number where the number keeps it
/// (a safe integer, or a double whose text is the one written), else as its
/// text: for comparisons with hand-written rows.
export function plainJson(value) {
  if (value instanceof Num) {
    const n = Number(value.text);
    return Number.isSafeInteger(n) || String(n) === value.text ? n : value.text;
  }
  if (Array.isArray(value)) return value.map(plainJson);
  if (value !== null && typeof value === 'object') {
    const out = {};
    for (const [k, v] of Object.entries(value)) out[k] = plainJson(v);
    return out;
  }
  return value;
}

// Writes a ClickBench-shaped `hits` dataset with DuckDB: the 105 columns of
// ClickBench's create.sql with the physical types of ClickBench's own Parquet
// files, web-log-like skewed values, sorted as ClickBench's table is.
//
// Usage: node bench/make-clickbench.mjs OUT_DIR [--rows N] [--files M] [--seed S]
//   N rows (default 10,000,000) in M files (default 24), OUT_DIR/hits_0.parquet ...
//   hits_<M-1>.parquet (snappy, DuckDB's row groups of 122,880 rows), sorted as a
//   whole by (CounterID, EventDate, UserID, EventTime, WatchID): file k holds the
//   k-th slice of that order. OUT_DIR/params.json, written last, records N, M, S
//   (bench/run.sh regenerates when it is missing, differs, or is older than this file).
//
// Types (ClickBench's Parquet files, DuckDB's names): integers as create.sql
// declares them (SMALLINT, INTEGER, BIGINT); EventTime, ClientEventTime and
// LocalEventTime BIGINT seconds since the epoch; EventDate USMALLINT days since the
// epoch (15887 = 2013-07-01); text columns VARCHAR (ClickBench's files carry them
// as BYTE_ARRAY without the STRING annotation; here they are annotated strings).
// No column is nullable in create.sql; none holds a null here.
//
// Every "random" choice is hash(row, salt, seed) mapped to [0, 1), or a hash of a
// derived key (the user, the page), so the files are the same on every run and
// under any thread count. The values, chosen so that ClickBench's 43 queries
// select and group rows as they do on the real data:
// - CounterID: six heavy counters (62 holds 18% of the rows, 1143050 11%, 842 7%,
//   16361 5%, 33290 4%, 3922 3%), the rest spread over ~3,000 counters with a
//   power-law skew (the largest of them, 101, holds 3.6%). Queries 37-43 filter on CounterID = 62; query 28's
//   HAVING COUNT(*) > 100000 keeps the heavy counters.
// - UserID: a Zipf-like user rank (rank = N/3 * u^2.2; the top user has ~0.3% of
//   the rows, ~29% of the rows' users are distinct), UserID a hash of the rank; 1 row in 200,000 is user
//   435090932899640449 (query 20). A user's region, IP, screen, OS, browser and
//   phone are functions of the user (10% of rows take a random IP).
// - EventDate: 2013-07-01 .. 2013-07-31; EventTime that day, seconds skewed to
//   the day's second half; ClientEventTime and LocalEventTime within hours of it.
// - WatchID: unique (row number times an odd constant, modulo 2^63).
// - URL: http(s)://[www.]<counter's site>/<section>/<page>.html[?id=k], pages Zipf
//   per counter (5,000 pages for the heavy counters, 40 for the others; page 0 is
//   the site's root); ~30% of the URLs distinct; 0.5% empty; 1.2% point at Google
//   (www.google.ru/search..., maps.google.com/..., and "google" without dots).
//   URLHash a hash of the URL, except that counter 62's root
//   ("http://news.example.ru/") has 2868770270353813622 (queries 41, 42).
// - Referer: 35% empty, 25% a page of the same site, 25% a search engine, the
//   rest social networks and other sites, each with a path after the domain
//   (query 29's regular expression); RefererHash a hash of it, the empty Referer's
//   3594120000172545465 (query 40). TraficSourceID follows the referer
//   (-1 internal; 0, 6 or -1 without a referer; 2 search, 3 ad, 8 social, 1 other).
// - SearchPhrase: empty on 87% of the rows; else one of ~N/50 phrases of
//   Russian and English words, Zipf-like, with SearchEngineID != 0. Non-ASCII
//   text lives in SearchPhrase and Title; URL and Referer are ASCII (as
//   percent-encoded URLs are), so that length() in characters and DuckDB's
//   STRLEN in bytes agree on them (queries 28, 29).
// - MobilePhoneModel: empty for 92% of the users; else one of 24 models, skewed.
// - Title: words of the page and the site; 2% empty; 0.6% mention "Google".
// - Small domains: IsRefresh 9% 1, DontCountHits 4% 1, IsLink 6% 1, IsDownload 1%
//   1, AdvEngineID 0 on 97%, ResolutionWidth from 13 common widths,
//   WindowClientWidth/Height a little below the screen's (query 42 groups them).
//
// 10M rows (1.2 GB) take under three minutes on 2 busy cores: the keys are generated
// and sorted first, then each file's rows computed from its slice of the sorted keys.
import { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadDuckDB } from './load_duckdb.mjs';

function parseArgs(argv) {
  const args = { outDir: null, rows: 10_000_000, files: 24, seed: 1 };
  for (let i = 0; i < argv.length; ++i) {
    if (argv[i] === '--rows') args.rows = Number(argv[++i]);
    else if (argv[i] === '--files') args.files = Number(argv[++i]);
    else if (argv[i] === '--seed') args.seed = Number(argv[++i]);
    else if (!argv[i].startsWith('--') && !args.outDir) args.outDir = argv[i];
    else args.outDir = null, args.bad = argv[i];
  }
  const ok = (n) => Number.isInteger(n) && n > 0;
  if (!args.outDir || args.bad || !ok(args.rows) || !ok(args.files) || !Number.isInteger(args.seed)) {
    console.error('usage: node bench/make-clickbench.mjs OUT_DIR [--rows N] [--files M] [--seed S]');
    process.exit(2);
  }
  return args;
}

const args = parseArgs(process.argv.slice(2));
const N = args.rows;
const started = Date.now();
const log = (text) => console.error(`make-clickbench: ${text} (${((Date.now() - started) / 1000).toFixed(1)} s)`);

const sqlList = (items) => `[${items.map((s) => `'${s.replaceAll("'", "''")}'`).join(', ')}]`;
// A list element chosen by x in [0, 1): lists are 1-based in DuckDB.
const pick = (list, x) => `${list}[1 + floor((${x}) * len(${list}))::INTEGER]`;

const kWords = sqlList([
  'погода', 'новости', 'купить', 'отзывы', 'скачать', 'бесплатно', 'москва', 'цена', 'фото', 'видео',
  'онлайн', 'смотреть', 'авто', 'квартира', 'работа', 'игры', 'музыка', 'фильм', 'карта', 'рецепт',
  'weather', 'news', 'buy', 'download', 'free', 'online', 'video', 'music', 'game', 'map',
  'car', 'phone', 'hotel', 'ticket', 'price', 'review', 'movie', 'recipe', 'job', 'sale',
]);
const kSections = sqlList(['news', 'catalog', 'forum', 'blog', 'item', 'search', 'video', 'photo',
                           'user', 'cars', 'realty', 'jobs', 'sport', 'weather', 'games', 'music']);
const kHeavySites = {
  62: 'news.example.ru', 1143050: 'auto.example.ru', 842: 'market.example.com', 16361: 'mail.example.ru',
  33290: 'forum.example.org', 3922: 'video.example.net',
};
const kSearchReferers = sqlList(['https://yandex.ru/yandsearch?text=', 'https://www.google.ru/search?q=',
                                 'http://go.mail.ru/search?q=', 'https://www.bing.com/search?q=',
                                 'http://nova.rambler.ru/search?query=', 'https://www.yandex.ru/search/?text=']);
const kSocialReferers = sqlList(['http://vk.com/feed', 'https://www.facebook.com/l.php', 'http://ok.ru/group/',
                                 'https://twitter.com/i/web/status/', 'http://www.livejournal.com/read/',
                                 'https://t.co/', 'http://my.mail.ru/community/']);
const kOtherReferers = sqlList(['http://www.liveinternet.ru/click', 'http://news.yandex.ru/yandsearch',
                                'https://www.avito.ru/moskva/', 'http://www.kinopoisk.ru/film/',
                                'https://ru.wikipedia.org/wiki/', 'http://www.gismeteo.ru/city/']);
const kPhoneModels = sqlList(['iPad', 'iPhone', 'GT-I9300', 'GT-I9100', 'HTC One', 'Lumia 920', 'GT-S5830',
                              'Nexus 7', 'GT-N7100', 'Xperia Z', 'GT-I8190', 'SM-T210', 'A500', 'U8950',
                              'GT-P5100', 'Galaxy Nexus', 'MI 2', 'K900', 'ME173X', 'Kindle Fire', 'LT26i',
                              'Desire HD', 'One X', 'Optimus L7']);
const kWidths = '[1366, 1920, 1280, 1024, 1440, 1600, 1680, 1536, 360, 320, 1280, 768, 0]';
const kHeights = '[768, 1080, 1024, 768, 900, 900, 1050, 864, 640, 480, 800, 1024, 0]';
const kLanguages = sqlList(['ru', 'ru', 'ru', 'en', 'uk', 'be', 'kk', 'de', 'tr']);
const kCountries = sqlList(['ru', 'ru', 'ru', 'ua', 'by', 'kz', 'us', 'de', 'tr']);

const { DuckDBInstance } = await loadDuckDB();
const instance = await DuckDBInstance.create(':memory:');
const db = await instance.connect();
await db.run('SET threads = 2');
await db.run("SET memory_limit = '4GB'");
await db.run('SET preserve_insertion_order = true');
// u(x, salt): a uniform double in [0, 1) from a hash of (x, salt, seed).
await db.run(`CREATE MACRO u(x, salt) AS (hash(x, salt, ${args.seed}) >> 11)::DOUBLE / 9007199254740992.0`);
// h63(x, salt): a non-negative BIGINT hash.
// fl(x): floor(x) as a BIGINT (floor of a DOUBLE is a DOUBLE, which prints "12.0").
await db.run('CREATE MACRO fl(x) AS floor(x)::BIGINT');
await db.run(`CREATE MACRO h63(x, salt) AS (hash(x, salt, ${args.seed}) >> 1)::BIGINT`);

// The keys, sorted: everything the sort order depends on, plus the row's seed i
// and its user rank, from which each file's other columns are computed.
const users = Math.max(1000, Math.floor(N / 3));
const otherSite = `'site' || CounterID || CASE WHEN CounterID % 3 = 0 THEN '.com' ELSE '.ru' END`;
const heavySite = `CASE CounterID ${Object.entries(kHeavySites).map(([id, site]) => `WHEN ${id} THEN '${site}'`).join(' ')} ` +
                  `ELSE ${otherSite} END`;
await db.run(`CREATE TABLE keys AS
  WITH base AS (
    SELECT i,
      CASE WHEN u(i, 1) < 0.18 THEN 62 WHEN u(i, 1) < 0.29 THEN 1143050 WHEN u(i, 1) < 0.36 THEN 842
           WHEN u(i, 1) < 0.41 THEN 16361 WHEN u(i, 1) < 0.45 THEN 33290 WHEN u(i, 1) < 0.48 THEN 3922
           ELSE 101 + floor(pow(u(i, 2), 3) * 3000)::INTEGER * 7 END AS CounterID,
      floor(pow(u(i, 3), 2.2) * ${users})::BIGINT AS ur,
      (15887 + floor(u(i, 4) * 31))::USMALLINT AS EventDate,
      floor(pow(u(i, 5), 0.7) * 86400)::BIGINT AS second
    FROM range(${N}) t(i))
  SELECT i, ur, CounterID::INTEGER AS CounterID, EventDate,
    CASE WHEN u(i, 6) < 0.000005 THEN 435090932899640449 ELSE h63(ur, 7) END AS UserID,
    EventDate::BIGINT * 86400 + second AS EventTime,
    ((i::HUGEINT * 6364136223846793005 + ${args.seed}) % 9223372036854775808)::BIGINT AS WatchID,
    row_number() OVER (ORDER BY CounterID, EventDate, UserID, EventTime, WatchID) - 1 AS rn
  FROM base
  ORDER BY rn`);  // stored in rn order: each file's slice is a range of row groups
log(`${N} keys generated and sorted`);

// The page of the row's counter (Zipf-like, 0 = the root) and the URL's parts.
const columns = `
  WatchID,
  (u(i, 10) < 0.7)::SMALLINT AS JavaEnable,
  CASE WHEN u(i, 11) < 0.02 THEN ''
       WHEN u(i, 12) < 0.006 THEN ${pick(sqlList(['Google', 'Поиск Google', 'Google Maps', 'Google Chrome — скачать']), 'u(i, 13)')} || ' - ' || site
       ELSE ${pick(kWords, 'u(page, 14)')} || ' ' || ${pick(kWords, 'u(page, 15)')} || ' — ' || site END AS Title,
  1::SMALLINT AS GoodEvent,
  EventTime,
  EventDate,
  CounterID,
  (CASE WHEN u(i, 16) < 0.1 THEN floor(u(i, 17) * 4294967000) ELSE floor(u(ur, 18) * 4294967000) END
     - 2147483500)::INTEGER AS ClientIP,
  (CASE WHEN u(ur, 19) < 0.3 THEN 229 ELSE 1 + floor(pow(u(ur, 20), 3) * 5000) END)::INTEGER AS RegionID,
  UserID,
  floor(u(i, 21) * 3)::SMALLINT AS CounterClass,
  floor(pow(u(ur, 22), 2) * 80)::SMALLINT AS OS,
  floor(pow(u(ur, 23), 2) * 100)::SMALLINT AS UserAgent,
  URL,
  Referer,
  (u(i, 24) < 0.09)::SMALLINT AS IsRefresh,
  floor(u(i, 25) * 20)::SMALLINT AS RefererCategoryID,
  floor(pow(u(i, 26), 3) * 5000)::INTEGER AS RefererRegionID,
  floor(u(page, 27) * 20)::SMALLINT AS URLCategoryID,
  floor(pow(u(i, 28), 3) * 5000)::INTEGER AS URLRegionID,
  ResolutionWidth::SMALLINT AS ResolutionWidth,
  ResolutionHeight::SMALLINT AS ResolutionHeight,
  (CASE WHEN u(ur, 29) < 0.8 THEN 24 ELSE 32 END)::SMALLINT AS ResolutionDepth,
  floor(u(ur, 30) * 12)::SMALLINT AS FlashMajor,
  floor(u(ur, 31) * 10)::SMALLINT AS FlashMinor,
  CASE WHEN u(ur, 32) < 0.5 THEN '' ELSE fl(u(ur, 33) * 300)::VARCHAR END AS FlashMinor2,
  floor(u(ur, 34) * 5)::SMALLINT AS NetMajor,
  floor(u(ur, 35) * 10)::SMALLINT AS NetMinor,
  floor(u(ur, 36) * 30)::SMALLINT AS UserAgentMajor,
  ${pick(sqlList(['0', 'D0', '1', '5', '10', 'WO', '8']), 'u(ur, 37)')} AS UserAgentMinor,
  1::SMALLINT AS CookieEnable,
  (u(ur, 38) < 0.95)::SMALLINT AS JavascriptEnable,
  (MobilePhoneModel <> '')::SMALLINT AS IsMobile,
  (CASE WHEN MobilePhoneModel = '' THEN 0 ELSE 1 + floor(u(ur, 39) * 40) END)::SMALLINT AS MobilePhone,
  MobilePhoneModel,
  CASE WHEN u(i, 40) < 0.9 THEN '' ELSE 'utm=' || fl(u(i, 41) * 1000)::VARCHAR END AS Params,
  floor(u(ur, 42) * 300000)::INTEGER AS IPNetworkID,
  TraficSourceID::SMALLINT AS TraficSourceID,
  SearchEngineID::SMALLINT AS SearchEngineID,
  SearchPhrase,
  AdvEngineID::SMALLINT AS AdvEngineID,
  0::SMALLINT AS IsArtifical,
  greatest(ResolutionWidth - floor(u(i, 43) * 120), 0)::SMALLINT AS WindowClientWidth,
  greatest(ResolutionHeight - 90 - floor(u(i, 44) * 250), 0)::SMALLINT AS WindowClientHeight,
  ${pick('[-1, 180, 240, 120, 300, 60, 360]', 'pow(u(ur, 45), 2)')}::SMALLINT AS ClientTimeZone,
  EventTime + floor(u(i, 46) * 600)::BIGINT - 300 AS ClientEventTime,
  floor(u(ur, 47) * 6)::SMALLINT AS SilverlightVersion1,
  floor(u(ur, 48) * 2)::SMALLINT AS SilverlightVersion2,
  floor(u(ur, 49) * 60000)::INTEGER AS SilverlightVersion3,
  floor(u(ur, 50) * 10)::SMALLINT AS SilverlightVersion4,
  CASE WHEN u(i, 51) < 0.7 THEN 'utf-8' ELSE 'windows-1251' END AS PageCharset,
  (500 + floor(u(i, 52) * 50))::INTEGER AS CodeVersion,
  (u(i, 53) < 0.06)::SMALLINT AS IsLink,
  (u(i, 54) < 0.01)::SMALLINT AS IsDownload,
  (u(i, 55) < 0.5)::SMALLINT AS IsNotBounce,
  CASE WHEN u(ur, 56) < 0.4 THEN 0 ELSE h63(ur, 57) END AS FUniqID,
  CASE WHEN u(i, 58) < 0.95 THEN '' ELSE URL END AS OriginalURL,
  (h63(i, 59) % 2147483647)::INTEGER AS HID,
  0::SMALLINT AS IsOldCounter,
  (u(i, 60) < 0.03)::SMALLINT AS IsEvent,
  (u(i, 61) < 0.1)::SMALLINT AS IsParameter,
  (u(i, 62) < 0.04)::SMALLINT AS DontCountHits,
  (u(i, 63) < 0.02)::SMALLINT AS WithHash,
  ${pick(sqlList(['F', 'F', 'F', 'D', 'E']), 'u(i, 64)')} AS HitColor,
  EventTime + 3600 * floor(u(ur, 65) * 5)::BIGINT AS LocalEventTime,
  floor(u(ur, 66) * 6)::SMALLINT AS Age,
  floor(u(ur, 67) * 3)::SMALLINT AS Sex,
  floor(u(ur, 68) * 5)::SMALLINT AS Income,
  floor(u(ur, 69) * 1000)::SMALLINT AS Interests,
  (u(i, 70) < 0.02)::SMALLINT AS Robotness,
  (floor(u(i, 71) * 4294967000) - 2147483500)::INTEGER AS RemoteIP,
  (CASE WHEN u(i, 72) < 0.8 THEN -1 ELSE floor(u(i, 73) * 100000) END)::INTEGER AS WindowName,
  (CASE WHEN u(i, 74) < 0.8 THEN -1 ELSE floor(u(i, 75) * 100000) END)::INTEGER AS OpenerName,
  floor(pow(u(i, 76), 3) * 50)::SMALLINT AS HistoryLength,
  ${pick(kLanguages, 'u(ur, 77)')} AS BrowserLanguage,
  ${pick(kCountries, 'u(ur, 78)')} AS BrowserCountry,
  CASE WHEN Referer LIKE '%vk.com%' THEN 'vkontakte' WHEN Referer LIKE '%facebook%' THEN 'facebook' ELSE '' END AS SocialNetwork,
  '' AS SocialAction,
  (CASE WHEN u(i, 79) < 0.995 THEN 0 ELSE 404 END)::SMALLINT AS HTTPError,
  floor(pow(u(i, 80), 3) * 3000)::INTEGER AS SendTiming,
  floor(pow(u(i, 81), 3) * 1000)::INTEGER AS DNSTiming,
  floor(pow(u(i, 82), 3) * 2000)::INTEGER AS ConnectTiming,
  floor(pow(u(i, 83), 3) * 5000)::INTEGER AS ResponseStartTiming,
  floor(pow(u(i, 84), 3) * 8000)::INTEGER AS ResponseEndTiming,
  floor(pow(u(i, 85), 3) * 10000)::INTEGER AS FetchTiming,
  (CASE WHEN SocialNetwork = '' THEN 0 ELSE 1 + floor(u(i, 86) * 5) END)::SMALLINT AS SocialSourceNetworkID,
  CASE WHEN SocialNetwork = '' THEN '' ELSE Referer END AS SocialSourcePage,
  CASE WHEN u(i, 87) < 0.99 THEN 0 ELSE floor(u(i, 88) * 100000)::BIGINT END AS ParamPrice,
  CASE WHEN ParamPrice = 0 THEN '' ELSE 'order-' || fl(u(i, 89) * 1000000)::VARCHAR END AS ParamOrderID,
  CASE WHEN ParamPrice = 0 THEN '' ELSE 'RUB' END AS ParamCurrency,
  (CASE WHEN ParamPrice = 0 THEN 0 ELSE 643 END)::SMALLINT AS ParamCurrencyID,
  CASE WHEN u(i, 90) < 0.98 THEN '' ELSE 'direct.yandex.ru' END AS OpenstatServiceName,
  CASE WHEN OpenstatServiceName = '' THEN '' ELSE fl(u(i, 91) * 1000)::VARCHAR END AS OpenstatCampaignID,
  CASE WHEN OpenstatServiceName = '' THEN '' ELSE fl(u(i, 92) * 10000)::VARCHAR END AS OpenstatAdID,
  CASE WHEN OpenstatServiceName = '' THEN '' ELSE 'src' || fl(u(i, 93) * 10)::VARCHAR END AS OpenstatSourceID,
  CASE WHEN u(i, 94) < 0.95 THEN '' ELSE ${pick(sqlList(['yandex', 'google', 'vk', 'email']), 'u(i, 95)')} END AS UTMSource,
  CASE WHEN UTMSource = '' THEN '' ELSE ${pick(sqlList(['cpc', 'email', 'banner']), 'u(i, 96)')} END AS UTMMedium,
  CASE WHEN UTMSource = '' THEN '' ELSE 'campaign' || fl(u(i, 97) * 50)::VARCHAR END AS UTMCampaign,
  CASE WHEN UTMSource = '' THEN '' ELSE 'ad' || fl(u(i, 98) * 200)::VARCHAR END AS UTMContent,
  CASE WHEN UTMSource = '' THEN '' ELSE ${pick(kWords, 'u(i, 99)')} END AS UTMTerm,
  CASE WHEN u(i, 100) < 0.97 THEN '' ELSE 'tag' || fl(u(i, 101) * 20)::VARCHAR END AS FromTag,
  (u(i, 102) < 0.03)::SMALLINT AS HasGCLID,
  CASE WHEN Referer = '' THEN 3594120000172545465 ELSE h63(Referer, 103) END AS RefererHash,
  CASE WHEN URL = 'http://news.example.ru/' THEN 2868770270353813622 ELSE h63(URL, 104) END AS URLHash,
  (CASE WHEN u(i, 105) < 0.95 THEN 0 ELSE floor(u(i, 106) * 1000000) END)::INTEGER AS CLID`;

// Per row: the page, the site, the referer kind, the search, the user's screen and phone.
const derived = `
  WITH r AS (
    SELECT *,
      hash(CounterID, pageNo) AS page,
      ${heavySite} AS site,
      u(i, 201) AS kind,
      CASE WHEN u(i, 202) < 0.13 THEN floor(pow(u(i, 203), 3) * ${Math.max(100, Math.floor(N / 50))})::BIGINT ELSE -1 END AS phrase,
      floor(pow(u(ur, 204), 2) * 13)::INTEGER AS screen
    FROM (SELECT *, fl(pow(u(i, 200), 2.5) * CASE WHEN CounterID IN (${Object.keys(kHeavySites).join(', ')})
                                                  THEN 5000 ELSE 40 END) AS pageNo
          FROM keys WHERE rn >= $lo AND rn < $hi)),
  s AS (
    SELECT *,
      CASE WHEN u(i, 205) < 0.005 THEN ''
           WHEN u(i, 206) < 0.012 THEN ${pick(sqlList([
               'http://www.google.ru/search?q=', 'https://www.google.com/url?sa=t&url=', 'https://maps.google.com/maps?q=',
               'http://images.google.ru/imgres?imgurl=', 'http://googleads.g.doubleclick.net/pagead/ads?id=',
               'http://translate.googleusercontent.com/translate_c?u=']), 'u(i, 207)')} || (i % 1000)::VARCHAR
           ELSE CASE WHEN u(i, 208) < 0.2 THEN 'https://' ELSE 'http://' END
                || CASE WHEN u(i, 209) < 0.1 AND CounterID <> 62 THEN 'www.' ELSE '' END || site || '/'
                || CASE WHEN pageNo = 0 THEN ''
                        ELSE ${pick(kSections, 'u(page, 210)')} || '/' || pageNo::VARCHAR || '.html'
                             || CASE WHEN u(i, 211) < 0.1 THEN '?id=' || fl(u(i, 212) * 100)::VARCHAR ELSE '' END END
      END AS URL,
      CASE WHEN kind < 0.35 THEN ''
           WHEN kind < 0.60 THEN 'http://' || site || '/' || ${pick(kSections, 'u(i, 213)')} || '/'
                                 || fl(pow(u(i, 214), 2.5) * 5000)::VARCHAR || '.html'
           WHEN kind < 0.85 THEN ${pick(kSearchReferers, 'pow(u(i, 215), 2)')} || (CASE WHEN phrase >= 0 THEN phrase ELSE i % 5000 END)::VARCHAR
           WHEN kind < 0.93 THEN ${pick(kSocialReferers, 'u(i, 216)')} || fl(u(i, 217) * 10000)::VARCHAR
           ELSE ${pick(kOtherReferers, 'u(i, 218)')} || fl(u(i, 219) * 1000)::VARCHAR END AS Referer,
      CASE WHEN phrase < 0 THEN ''
           ELSE ${pick(kWords, 'u(phrase, 220)')} || ' ' || ${pick(kWords, 'u(phrase, 221)')}
                || CASE WHEN phrase >= 40 THEN ' ' || ${pick(kWords, 'u(phrase, 222)')} ELSE '' END
                || CASE WHEN phrase >= 2000 THEN ' ' || (phrase % 97)::VARCHAR ELSE '' END END AS SearchPhrase,
      CASE WHEN phrase >= 0 THEN ${pick('[2, 2, 2, 3, 3, 1, 4, 5, 13, 26]', 'u(i, 223)')} ELSE 0 END AS SearchEngineID,
      CASE WHEN u(i, 224) < 0.03 THEN ${pick('[2, 2, 3, 13, 27, 4, 1]', 'u(i, 225)')} ELSE 0 END AS AdvEngineID,
      ${kWidths}[1 + screen] AS ResolutionWidth,
      ${kHeights}[1 + screen] AS ResolutionHeight,
      CASE WHEN u(ur, 226) < 0.92 THEN '' ELSE ${pick(kPhoneModels, 'pow(u(ur, 227), 2)')} END AS MobilePhoneModel
    FROM r),
  t AS (
    SELECT *,
      CASE WHEN AdvEngineID <> 0 THEN 3
           WHEN kind < 0.35 THEN ${pick('[0, 0, 0, 0, 6, 6, 6, -1, -1]', 'u(i, 228)')}
           WHEN kind < 0.60 THEN -1 WHEN kind < 0.85 THEN 2 WHEN kind < 0.93 THEN 8 ELSE 1 END AS TraficSourceID
    FROM s)
  SELECT ${columns} FROM t ORDER BY rn`;

mkdirSync(args.outDir, { recursive: true });
for (const name of readdirSync(args.outDir)) {
  if (/^hits_\d+\.parquet(\.tmp)?$/.test(name) || name === 'params.json') rmSync(path.join(args.outDir, name));
}
const perFile = Math.ceil(N / args.files);
for (let f = 0; f < args.files; ++f) {
  const lo = Math.min(N, f * perFile), hi = Math.min(N, (f + 1) * perFile);
  const out = path.join(args.outDir, `hits_${f}.parquet`);
  const sql = derived.replaceAll('$lo', String(lo)).replaceAll('$hi', String(hi));
  await db.run(`COPY (${sql}) TO '${out}.tmp' (FORMAT parquet, COMPRESSION snappy)`);
  renameSync(`${out}.tmp`, out);
  if (f === 0 || f === args.files - 1 || f % 6 === 5) log(`wrote ${out} (${hi - lo} rows)`);
}
const check = (await db.runAndReadAll(`SELECT count(*), count(DISTINCT WatchID), count(*) FILTER (CounterID = 62)
    FROM read_parquet('${path.join(args.outDir, 'hits_*.parquet')}')`)).getRows()[0].map(Number);
if (check[0] !== N || check[1] !== N) {
  console.error(`make-clickbench: wrote ${check[0]} rows with ${check[1]} distinct WatchIDs, expected ${N}`);
  process.exit(1);
}
writeFileSync(path.join(args.outDir, 'params.json'),
              JSON.stringify({ rows: N, files: args.files, seed: args.seed }) + '\n');
log(`${N} rows in ${args.files} files under ${args.outDir}, ${check[2]} of them CounterID 62`);
db.closeSync();
instance.closeSync();

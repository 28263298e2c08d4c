// ClickBench's 43 queries (queries.sql of github.com/ClickHouse/ClickBench,
// duckdb-parquet) over the `hits` files of bench/make-clickbench.mjs, each as
//   { name, title, quarry, sql, [chdb], [offset], [check], [pending, interim] }
//
//   quarry   the query in quarry's language; `FROM` reads every hits_*.parquet of the
//            directory.
//   sql      DuckDB's SQL over a view `hits` of the same files (read_parquet, no
//            conversions); chdb, where given, is ClickHouse's spelling of it (else the
//            runner uses sql), `hits` being file('DIR/hits_*.parquet', Parquet).
//   offset   ClickBench's OFFSET k: ES|QL has no OFFSET, so the quarry query has
//            LIMIT k + n and only its rows after the first k are compared with the
//            SQL's LIMIT n OFFSET k.
//   check    'groups' for query 18, GROUP BY ... LIMIT 10 without ORDER BY, whose 10
//            groups are any 10: each group quarry returns is checked (its count and
//            that it is one) against DuckDB, instead of the rows themselves.
//   pending  why quarry cannot run the query yet; `quarry` is then the ES|QL form the
//            language will accept. interim, where given, is a form quarry runs today
//            with the same answer (timed and checked, reported apart).
//
// Translations, the same in every query:
// - Column order: quarry's STATS puts the aggregates first, then the groups (ES|QL's
//   order), so each SQL selects in that order; SQL column names are not compared.
// - HAVING is a WHERE after STATS. ORDER BY ties get more keys (the groups, or WatchID
//   for rows) in both languages, so that both answers are one list of rows.
// - EventDate is the files' uint16 day number and EventTime int64 seconds (the raw
//   columns, in quarry and in the SQL): '2013-07-01' is 15887, '2013-07-14' 15900,
//   '2013-07-15' 15901, '2013-07-31' 15917.
// - STRLEN (DuckDB, bytes) and LENGTH (quarry, characters) agree because the
//   generator's URL and Referer are ASCII.
// - LIKE: ClickBench's '%google%' is "*google*" in ES|QL, whose LIKE takes * and ?
//   (SQL's % and _ match themselves there).

const kFrom = (dir) => `FROM "${dir}/hits_*.parquet"`;
// ClickBench's filters of queries 37-42: counter 62 in July 2013.
const kCounter62July = 'CounterID == 62 AND EventDate >= 15887 AND EventDate <= 15917';
const kCounter62JulySql = 'CounterID = 62 AND EventDate >= 15887 AND EventDate <= 15917';

const sums = (sep) => Array.from({ length: 90 }, (_, k) => (k === 0 ? 'SUM(ResolutionWidth)' : `SUM(ResolutionWidth + ${k})`))
  .join(sep);

/// The queries over the hits_*.parquet files of `dir`.
export function clickbenchQueries(dir) {
  const from = kFrom(dir);
  return [
    { name: 'Q01', title: 'count(*)', quarry: `${from} | STATS COUNT(*)`, sql: 'SELECT COUNT(*) FROM hits' },
    { name: 'Q02', title: 'count where AdvEngineID != 0',
      quarry: `${from} | WHERE AdvEngineID != 0 | STATS COUNT(*)`,
      sql: 'SELECT COUNT(*) FROM hits WHERE AdvEngineID <> 0' },
    { name: 'Q03', title: 'sum, count, avg',
      quarry: `${from} | STATS SUM(AdvEngineID), COUNT(*), AVG(ResolutionWidth)`,
      sql: 'SELECT SUM(AdvEngineID), COUNT(*), AVG(ResolutionWidth) FROM hits' },
    { name: 'Q04', title: 'avg(UserID)', quarry: `${from} | STATS AVG(UserID)`, sql: 'SELECT AVG(UserID) FROM hits',
      // ClickHouse's avg of an Int64 sums in Int64, which wraps on these UserIDs.
      chdb: 'SELECT AVG(toInt128(UserID)) FROM hits' },
    { name: 'Q05', title: 'count_distinct(UserID)', quarry: `${from} | STATS COUNT_DISTINCT(UserID)`,
      sql: 'SELECT COUNT(DISTINCT UserID) FROM hits' },
    { name: 'Q06', title: 'count_distinct(SearchPhrase)', quarry: `${from} | STATS COUNT_DISTINCT(SearchPhrase)`,
      sql: 'SELECT COUNT(DISTINCT SearchPhrase) FROM hits' },
    { name: 'Q07', title: 'min, max EventDate', quarry: `${from} | STATS MIN(EventDate), MAX(EventDate)`,
      sql: 'SELECT MIN(EventDate), MAX(EventDate) FROM hits' },
    { name: 'Q08', title: 'count by AdvEngineID',
      quarry: `${from} | WHERE AdvEngineID != 0 | STATS c = COUNT(*) BY AdvEngineID | SORT c DESC, AdvEngineID`,
      sql: 'SELECT COUNT(*) AS c, AdvEngineID FROM hits WHERE AdvEngineID <> 0 GROUP BY AdvEngineID ' +
           'ORDER BY c DESC, AdvEngineID' },
    { name: 'Q09', title: 'count_distinct users by region',
      quarry: `${from} | STATS u = COUNT_DISTINCT(UserID) BY RegionID | SORT u DESC, RegionID | LIMIT 10`,
      sql: 'SELECT COUNT(DISTINCT UserID) AS u, RegionID FROM hits GROUP BY RegionID ORDER BY u DESC, RegionID LIMIT 10' },
    { name: 'Q10', title: 'four aggregates by region',
      quarry: `${from} | STATS SUM(AdvEngineID), c = COUNT(*), AVG(ResolutionWidth), COUNT_DISTINCT(UserID) BY RegionID
                 | SORT c DESC, RegionID | LIMIT 10`,
      sql: 'SELECT SUM(AdvEngineID), COUNT(*) AS c, AVG(ResolutionWidth), COUNT(DISTINCT UserID), RegionID FROM hits ' +
           'GROUP BY RegionID ORDER BY c DESC, RegionID LIMIT 10' },
    { name: 'Q11', title: 'count_distinct users by phone model',
      quarry: `${from} | WHERE MobilePhoneModel != "" | STATS u = COUNT_DISTINCT(UserID) BY MobilePhoneModel
                 | SORT u DESC, MobilePhoneModel | LIMIT 10`,
      sql: "SELECT COUNT(DISTINCT UserID) AS u, MobilePhoneModel FROM hits WHERE MobilePhoneModel <> '' " +
           'GROUP BY MobilePhoneModel ORDER BY u DESC, MobilePhoneModel LIMIT 10' },
    { name: 'Q12', title: 'count_distinct users by phone, model',
      quarry: `${from} | WHERE MobilePhoneModel != "" | STATS u = COUNT_DISTINCT(UserID) BY MobilePhone, MobilePhoneModel
                 | SORT u DESC, MobilePhone, MobilePhoneModel | LIMIT 10`,
      sql: "SELECT COUNT(DISTINCT UserID) AS u, MobilePhone, MobilePhoneModel FROM hits WHERE MobilePhoneModel <> '' " +
           'GROUP BY MobilePhone, MobilePhoneModel ORDER BY u DESC, MobilePhone, MobilePhoneModel LIMIT 10' },
    { name: 'Q13', title: 'count by search phrase',
      quarry: `${from} | WHERE SearchPhrase != "" | STATS c = COUNT(*) BY SearchPhrase | SORT c DESC, SearchPhrase
                 | LIMIT 10`,
      sql: "SELECT COUNT(*) AS c, SearchPhrase FROM hits WHERE SearchPhrase <> '' GROUP BY SearchPhrase " +
           'ORDER BY c DESC, SearchPhrase LIMIT 10' },
    { name: 'Q14', title: 'count_distinct users by search phrase',
      quarry: `${from} | WHERE SearchPhrase != "" | STATS u = COUNT_DISTINCT(UserID) BY SearchPhrase
                 | SORT u DESC, SearchPhrase | LIMIT 10`,
      sql: "SELECT COUNT(DISTINCT UserID) AS u, SearchPhrase FROM hits WHERE SearchPhrase <> '' GROUP BY SearchPhrase " +
           'ORDER BY u DESC, SearchPhrase LIMIT 10' },
    { name: 'Q15', title: 'count by engine, phrase',
      quarry: `${from} | WHERE SearchPhrase != "" | STATS c = COUNT(*) BY SearchEngineID, SearchPhrase
                 | SORT c DESC, SearchEngineID, SearchPhrase | LIMIT 10`,
      sql: "SELECT COUNT(*) AS c, SearchEngineID, SearchPhrase FROM hits WHERE SearchPhrase <> '' " +
           'GROUP BY SearchEngineID, SearchPhrase ORDER BY c DESC, SearchEngineID, SearchPhrase LIMIT 10' },
    { name: 'Q16', title: 'count by user',
      quarry: `${from} | STATS c = COUNT(*) BY UserID | SORT c DESC, UserID | LIMIT 10`,
      sql: 'SELECT COUNT(*) AS c, UserID FROM hits GROUP BY UserID ORDER BY c DESC, UserID LIMIT 10' },
    { name: 'Q17', title: 'count by user, phrase',
      quarry: `${from} | STATS c = COUNT(*) BY UserID, SearchPhrase | SORT c DESC, UserID, SearchPhrase | LIMIT 10`,
      sql: 'SELECT COUNT(*) AS c, UserID, SearchPhrase FROM hits GROUP BY UserID, SearchPhrase ' +
           'ORDER BY c DESC, UserID, SearchPhrase LIMIT 10' },
    { name: 'Q18', title: 'any 10 groups of user, phrase',
      quarry: `${from} | STATS c = COUNT(*) BY UserID, SearchPhrase | LIMIT 10`,
      sql: 'SELECT COUNT(*) AS c, UserID, SearchPhrase FROM hits GROUP BY UserID, SearchPhrase LIMIT 10',
      check: 'groups', groups: { keys: ['UserID', 'SearchPhrase'], types: ['BIGINT', 'VARCHAR'], aggregates: 'COUNT(*)' } },
    { name: 'Q19', title: 'count by user, minute, phrase',
      // ClickBench's extract(minute FROM EventTime), EventTime being seconds since the epoch.
      quarry: `${from} | STATS c = COUNT(*) BY UserID, m = DATE_EXTRACT("minute_of_hour", TO_DATETIME(EventTime * 1000)),
                 SearchPhrase | SORT c DESC, UserID, m, SearchPhrase | LIMIT 10`,
      sql: 'SELECT COUNT(*) AS c, UserID, extract(minute FROM epoch_ms(EventTime * 1000)) AS m, SearchPhrase FROM hits ' +
           'GROUP BY UserID, m, SearchPhrase ORDER BY c DESC, UserID, m, SearchPhrase LIMIT 10',
      chdb: "SELECT COUNT(*) AS c, UserID, toMinute(toDateTime(EventTime, 'UTC')) AS m, SearchPhrase FROM hits " +
            'GROUP BY UserID, m, SearchPhrase ORDER BY c DESC, UserID, m, SearchPhrase LIMIT 10' },
    { name: 'Q20', title: 'point lookup on UserID',
      quarry: `${from} | WHERE UserID == 435090932899640449 | KEEP UserID`,
      sql: 'SELECT UserID FROM hits WHERE UserID = 435090932899640449' },
    { name: 'Q21', title: 'count URL like google',
      quarry: `${from} | WHERE URL LIKE "*google*" | STATS COUNT(*)`,
      sql: "SELECT COUNT(*) FROM hits WHERE URL LIKE '%google%'" },
    { name: 'Q22', title: 'google URLs by phrase',
      quarry: `${from} | WHERE URL LIKE "*google*" AND SearchPhrase != "" | STATS MIN(URL), c = COUNT(*) BY SearchPhrase
                 | SORT c DESC, SearchPhrase | LIMIT 10`,
      sql: "SELECT MIN(URL), COUNT(*) AS c, SearchPhrase FROM hits WHERE URL LIKE '%google%' AND SearchPhrase <> '' " +
           'GROUP BY SearchPhrase ORDER BY c DESC, SearchPhrase LIMIT 10' },
    { name: 'Q23', title: 'Google titles by phrase',
      quarry: `${from} | WHERE Title LIKE "*Google*" AND URL NOT LIKE "*.google.*" AND SearchPhrase != ""
                 | STATS MIN(URL), MIN(Title), c = COUNT(*), COUNT_DISTINCT(UserID) BY SearchPhrase
                 | SORT c DESC, SearchPhrase | LIMIT 10`,
      sql: "SELECT MIN(URL), MIN(Title), COUNT(*) AS c, COUNT(DISTINCT UserID), SearchPhrase FROM hits " +
           "WHERE Title LIKE '%Google%' AND URL NOT LIKE '%.google.%' AND SearchPhrase <> '' " +
           'GROUP BY SearchPhrase ORDER BY c DESC, SearchPhrase LIMIT 10' },
    { name: 'Q24', title: 'all columns of google URLs by time',
      quarry: `${from} | WHERE URL LIKE "*google*" | SORT EventTime, WatchID | LIMIT 10`,
      sql: "SELECT * FROM hits WHERE URL LIKE '%google%' ORDER BY EventTime, WatchID LIMIT 10" },
    { name: 'Q25', title: 'phrases by time',
      quarry: `${from} | WHERE SearchPhrase != "" | SORT EventTime, WatchID | KEEP SearchPhrase | LIMIT 10`,
      sql: "SELECT SearchPhrase FROM hits WHERE SearchPhrase <> '' ORDER BY EventTime, WatchID LIMIT 10" },
    { name: 'Q26', title: 'phrases sorted',
      quarry: `${from} | WHERE SearchPhrase != "" | SORT SearchPhrase | KEEP SearchPhrase | LIMIT 10`,
      sql: "SELECT SearchPhrase FROM hits WHERE SearchPhrase <> '' ORDER BY SearchPhrase LIMIT 10" },
    { name: 'Q27', title: 'phrases by time, phrase',
      quarry: `${from} | WHERE SearchPhrase != "" | SORT EventTime, SearchPhrase | KEEP SearchPhrase | LIMIT 10`,
      sql: "SELECT SearchPhrase FROM hits WHERE SearchPhrase <> '' ORDER BY EventTime, SearchPhrase LIMIT 10" },
    { name: 'Q28', title: 'avg URL length by counter, having',
      quarry: `${from} | WHERE URL != "" | STATS l = AVG(LENGTH(URL)), c = COUNT(*) BY CounterID | WHERE c > 100000
                 | SORT l DESC, CounterID | LIMIT 25`,
      sql: "SELECT AVG(STRLEN(URL)) AS l, COUNT(*) AS c, CounterID FROM hits WHERE URL <> '' GROUP BY CounterID " +
           'HAVING COUNT(*) > 100000 ORDER BY l DESC, CounterID LIMIT 25',
      chdb: "SELECT AVG(length(URL)) AS l, COUNT(*) AS c, CounterID FROM hits WHERE URL <> '' GROUP BY CounterID " +
            'HAVING COUNT(*) > 100000 ORDER BY l DESC, CounterID LIMIT 25' },
    { name: 'Q29', title: 'referer domains, having',
      quarry: `${from} | WHERE Referer != "" | EVAL k = REPLACE(Referer, "^https?://(?:www\\\\.)?([^/]+)/.*$", "$1")
                 | STATS l = AVG(LENGTH(Referer)), c = COUNT(*), MIN(Referer) BY k | WHERE c > 100000
                 | SORT l DESC, k | LIMIT 25`,
      sql: "SELECT AVG(STRLEN(Referer)) AS l, COUNT(*) AS c, MIN(Referer), " +
           "REGEXP_REPLACE(Referer, '^https?://(?:www\\.)?([^/]+)/.*$', '\\1') AS k FROM hits WHERE Referer <> '' " +
           'GROUP BY k HAVING COUNT(*) > 100000 ORDER BY l DESC, k LIMIT 25',
      chdb: "SELECT AVG(length(Referer)) AS l, COUNT(*) AS c, MIN(Referer), " +
            "REGEXP_REPLACE(Referer, '^https?://(?:www\\\\.)?([^/]+)/.*$', '\\\\1') AS k FROM hits WHERE Referer <> '' " +
            'GROUP BY k HAVING COUNT(*) > 100000 ORDER BY l DESC, k LIMIT 25' },
    { name: 'Q30', title: '90 sums of ResolutionWidth + k',
      quarry: `${from} | STATS ${sums(', ')}`,
      sql: `SELECT ${sums(', ')} FROM hits` },
    { name: 'Q31', title: 'by engine, client IP, phrase set',
      quarry: `${from} | WHERE SearchPhrase != "" | STATS c = COUNT(*), SUM(IsRefresh), AVG(ResolutionWidth)
                 BY SearchEngineID, ClientIP | SORT c DESC, SearchEngineID, ClientIP | LIMIT 10`,
      sql: "SELECT COUNT(*) AS c, SUM(IsRefresh), AVG(ResolutionWidth), SearchEngineID, ClientIP FROM hits " +
           "WHERE SearchPhrase <> '' GROUP BY SearchEngineID, ClientIP ORDER BY c DESC, SearchEngineID, ClientIP LIMIT 10" },
    { name: 'Q32', title: 'by WatchID, client IP, phrase set',
      quarry: `${from} | WHERE SearchPhrase != "" | STATS c = COUNT(*), SUM(IsRefresh), AVG(ResolutionWidth)
                 BY WatchID, ClientIP | SORT c DESC, WatchID, ClientIP | LIMIT 10`,
      sql: "SELECT COUNT(*) AS c, SUM(IsRefresh), AVG(ResolutionWidth), WatchID, ClientIP FROM hits " +
           "WHERE SearchPhrase <> '' GROUP BY WatchID, ClientIP ORDER BY c DESC, WatchID, ClientIP LIMIT 10" },
    { name: 'Q33', title: 'by WatchID, client IP',
      quarry: `${from} | STATS c = COUNT(*), SUM(IsRefresh), AVG(ResolutionWidth) BY WatchID, ClientIP
                 | SORT c DESC, WatchID, ClientIP | LIMIT 10`,
      sql: 'SELECT COUNT(*) AS c, SUM(IsRefresh), AVG(ResolutionWidth), WatchID, ClientIP FROM hits ' +
           'GROUP BY WatchID, ClientIP ORDER BY c DESC, WatchID, ClientIP LIMIT 10' },
    { name: 'Q34', title: 'count by URL',
      quarry: `${from} | STATS c = COUNT(*) BY URL | SORT c DESC, URL | LIMIT 10`,
      sql: 'SELECT COUNT(*) AS c, URL FROM hits GROUP BY URL ORDER BY c DESC, URL LIMIT 10' },
    { name: 'Q35', title: 'count by 1, URL',
      quarry: `${from} | STATS c = COUNT(*) BY one = 1, URL | SORT c DESC, URL | LIMIT 10`,
      sql: 'SELECT COUNT(*) AS c, 1 AS one, URL FROM hits GROUP BY one, URL ORDER BY c DESC, URL LIMIT 10' },
    { name: 'Q36', title: 'count by ClientIP - k',
      quarry: `${from} | STATS c = COUNT(*) BY ClientIP, ClientIP - 1, ClientIP - 2, ClientIP - 3
                 | SORT c DESC, ClientIP | LIMIT 10`,
      sql: 'SELECT COUNT(*) AS c, ClientIP, ClientIP - 1, ClientIP - 2, ClientIP - 3 FROM hits ' +
           'GROUP BY ClientIP, ClientIP - 1, ClientIP - 2, ClientIP - 3 ORDER BY c DESC, ClientIP LIMIT 10' },
    { name: 'Q37', title: 'counter 62: page views by URL',
      quarry: `${from} | WHERE ${kCounter62July} AND DontCountHits == 0 AND IsRefresh == 0 AND URL != ""
                 | STATS PageViews = COUNT(*) BY URL | SORT PageViews DESC, URL | LIMIT 10`,
      sql: `SELECT COUNT(*) AS PageViews, URL FROM hits WHERE ${kCounter62JulySql} AND DontCountHits = 0 ` +
           "AND IsRefresh = 0 AND URL <> '' GROUP BY URL ORDER BY PageViews DESC, URL LIMIT 10" },
    { name: 'Q38', title: 'counter 62: page views by title',
      quarry: `${from} | WHERE ${kCounter62July} AND DontCountHits == 0 AND IsRefresh == 0 AND Title != ""
                 | STATS PageViews = COUNT(*) BY Title | SORT PageViews DESC, Title | LIMIT 10`,
      sql: `SELECT COUNT(*) AS PageViews, Title FROM hits WHERE ${kCounter62JulySql} AND DontCountHits = 0 ` +
           "AND IsRefresh = 0 AND Title <> '' GROUP BY Title ORDER BY PageViews DESC, Title LIMIT 10" },
    { name: 'Q39', title: 'counter 62: links by URL, offset 1000', offset: 1000,
      quarry: `${from} | WHERE ${kCounter62July} AND IsRefresh == 0 AND IsLink != 0 AND IsDownload == 0
                 | STATS PageViews = COUNT(*) BY URL | SORT PageViews DESC, URL | LIMIT 1010`,
      sql: `SELECT COUNT(*) AS PageViews, URL FROM hits WHERE ${kCounter62JulySql} AND IsRefresh = 0 ` +
           'AND IsLink <> 0 AND IsDownload = 0 GROUP BY URL ORDER BY PageViews DESC, URL LIMIT 10 OFFSET 1000' },
    { name: 'Q40', title: 'counter 62: by source, destination, offset 1000', offset: 1000,
      quarry: `${from} | WHERE ${kCounter62July} AND IsRefresh == 0
                 | STATS PageViews = COUNT(*) BY TraficSourceID, SearchEngineID, AdvEngineID,
                     Src = CASE WHEN SearchEngineID == 0 AND AdvEngineID == 0 THEN Referer ELSE "" END, Dst = URL
                 | SORT PageViews DESC, TraficSourceID, SearchEngineID, AdvEngineID, Src, Dst | LIMIT 1010`,
      sql: 'SELECT COUNT(*) AS PageViews, TraficSourceID, SearchEngineID, AdvEngineID, ' +
           "CASE WHEN (SearchEngineID = 0 AND AdvEngineID = 0) THEN Referer ELSE '' END AS Src, URL AS Dst FROM hits " +
           `WHERE ${kCounter62JulySql} AND IsRefresh = 0 GROUP BY TraficSourceID, SearchEngineID, AdvEngineID, Src, Dst ` +
           'ORDER BY PageViews DESC, TraficSourceID, SearchEngineID, AdvEngineID, Src, Dst LIMIT 10 OFFSET 1000' },
    { name: 'Q41', title: 'counter 62: by URLHash, date, offset 100', offset: 100,
      quarry: `${from} | WHERE ${kCounter62July} AND IsRefresh == 0 AND TraficSourceID IN (-1, 6)
                   AND RefererHash == 3594120000172545465
                 | STATS PageViews = COUNT(*) BY URLHash, EventDate | SORT PageViews DESC, URLHash, EventDate | LIMIT 110`,
      sql: `SELECT COUNT(*) AS PageViews, URLHash, EventDate FROM hits WHERE ${kCounter62JulySql} AND IsRefresh = 0 ` +
           'AND TraficSourceID IN (-1, 6) AND RefererHash = 3594120000172545465 GROUP BY URLHash, EventDate ' +
           'ORDER BY PageViews DESC, URLHash, EventDate LIMIT 10 OFFSET 100' },
    { name: 'Q42', title: 'counter 62: by window size, offset 10000', offset: 10000,
      quarry: `${from} | WHERE ${kCounter62July} AND IsRefresh == 0 AND DontCountHits == 0
                   AND URLHash == 2868770270353813622
                 | STATS PageViews = COUNT(*) BY WindowClientWidth, WindowClientHeight
                 | SORT PageViews DESC, WindowClientWidth, WindowClientHeight | LIMIT 10010`,
      sql: `SELECT COUNT(*) AS PageViews, WindowClientWidth, WindowClientHeight FROM hits WHERE ${kCounter62JulySql} ` +
           'AND IsRefresh = 0 AND DontCountHits = 0 AND URLHash = 2868770270353813622 ' +
           'GROUP BY WindowClientWidth, WindowClientHeight ' +
           'ORDER BY PageViews DESC, WindowClientWidth, WindowClientHeight LIMIT 10 OFFSET 10000' },
    { name: 'Q43', title: 'counter 62: page views by minute, offset 1000', offset: 1000,
      quarry: `${from} | WHERE CounterID == 62 AND EventDate >= 15900 AND EventDate <= 15901 AND IsRefresh == 0
                   AND DontCountHits == 0
                 | STATS PageViews = COUNT(*) BY M = DATE_TRUNC(1 minute, TO_DATETIME(EventTime * 1000))
                 | SORT M | LIMIT 1010`,
      // ES|QL's datetimes are instants: TO_DATETIME is a UTC timestamp, DuckDB's to_timestamp a TIMESTAMPTZ.
      sql: "SELECT COUNT(*) AS PageViews, DATE_TRUNC('minute', to_timestamp(EventTime)) AS M FROM hits " +
           'WHERE CounterID = 62 AND EventDate >= 15900 AND EventDate <= 15901 AND IsRefresh = 0 ' +
           "AND DontCountHits = 0 GROUP BY M ORDER BY M LIMIT 10 OFFSET 1000",
      chdb: "SELECT COUNT(*) AS PageViews, DATE_TRUNC('minute', toDateTime(EventTime, 'UTC')) AS M FROM hits " +
            'WHERE CounterID = 62 AND EventDate >= 15900 AND EventDate <= 15901 AND IsRefresh = 0 ' +
            'AND DontCountHits = 0 GROUP BY M ORDER BY M LIMIT 10 OFFSET 1000' },
  ];
}

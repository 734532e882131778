# The baseline of bench/open.mjs: SQLite FTS5 (BM25) over the same texts, through python3's sqlite3 module.
#   python3 fts5.py build DB TEXTS.jsonl      one table, one row per memory (id, text)
#   python3 fts5.py query DB QUERY            a cold process: connect, one ranked query, exit
#   python3 fts5.py warm DB QUERIES.jsonl     one process: every query timed after a warm-up pass
# Writes {"cpuMs", "rssMb", ...} to fd 3 when the bench opened it, else to stdout.
import json, os, re, resource, sqlite3, stat, sys, time

def report(extra):
    u = resource.getrusage(resource.RUSAGE_SELF)
    out = dict(extra, cpuMs=(u.ru_utime + u.ru_stime) * 1000, rssMb=u.ru_maxrss / 1024)
    # Only to the bench's pipe: run by hand, fd 3 may be the database file itself (it was: a report
    # written over the database's first page).
    try:
        mode = os.fstat(3).st_mode
        is_pipe = stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)
    except OSError:
        is_pipe = False
    if is_pipe:
        os.write(3, json.dumps(out).encode())
    else:
        print(json.dumps(out))

def match(text):
    # FTS5 query syntax: the query's words, each quoted, any of them (what a search box does).
    words = list(dict.fromkeys(w.lower() for w in re.findall(r'[A-Za-z0-9_]+', text) if len(w) > 1))[:48]
    return ' OR '.join('"%s"' % w for w in words) or '""'

def query(con, text):
    return con.execute('select id, bm25(m) from m where m match ? order by bm25(m) limit 5', (match(text),)).fetchall()

mode, db = sys.argv[1], sys.argv[2]
if mode == 'build':
    if os.path.exists(db):
        os.remove(db)
    con = sqlite3.connect(db)
    con.execute('create virtual table m using fts5(id unindexed, text)')
    with open(sys.argv[3]) as f:
        con.executemany('insert into m(id, text) values (?, ?)', ((o['id'], o['text']) for o in map(json.loads, f)))
    con.commit()
    con.close()
    report({'bytes': os.path.getsize(db)})
elif mode == 'query':
    con = sqlite3.connect(db)
    hits = query(con, sys.argv[3])
    report({'hits': len(hits)})
else:
    con = sqlite3.connect(db)
    qs = [json.loads(l)['text'] for l in open(sys.argv[3]) if l.strip()]
    for q in qs:
        query(con, q)
    times = []
    for q in qs:
        t = time.perf_counter()
        query(con, q)
        times.append((time.perf_counter() - t) * 1000)
    report({'times': times})

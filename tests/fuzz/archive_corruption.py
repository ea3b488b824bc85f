#!/usr/bin/env python3
"""Corruption campaign of the cold tier through SQL (outside CI).

Makes a database holding a generated ledger whose oldest ranges are archived (permanode
generate, ingest, archive), then, case after case until the time is up: copies one archived
partition's archive, corrupts the copy (bytes flipped in an SST or another file, a file truncated,
removed or swapped with another, or the manifest rewritten with a lie), points the foreign
partition at it, and asks what a reader asks: the whole partition, rows by their key, first pages
by each archived index, permanode.verify_archive() and `permanode verify`. Every query runs in a
new connection (a backend caches the archives it opened). Each answer must be the intact
archive's answer, or an error with SQLSTATE data_corrupted (XX001) or another clear SQLSTATE
whose message names the archive; the server must keep serving and its log must show no backend
killed by a signal. Anything else is a finding: the corrupted archive is kept under
WORK/findings with what was asked and answered, and `--replay SEED:CASE` runs that case again.

The server must be local and this script able to write into its archive root (root, or the
server's user). Usage:
  PG* naming a superuser connection, then
  archive_corruption.py --cli build/permanode --server-log LOG --work DIR [--minutes 10]
"""
import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
from collections import Counter, defaultdict

DB = 'archive_corruption'
STATEMENT_TIMEOUT = '60s'
CRASH_PATTERNS = re.compile(r'terminated by signal|was terminated|PANIC|server process .* exited')


class Sql:
    """psql in a new connection per call."""

    def __init__(self, db):
        self.db = db

    def run(self, sql):
        """(stdout, sqlstate or None, stderr); a failed connection is sqlstate 'CONNECTION'."""
        env = dict(os.environ, PGOPTIONS=f'-c statement_timeout={STATEMENT_TIMEOUT} '
                                         '-c client_min_messages=warning '
                                         '-c search_path=permanode,public')
        p = subprocess.run(['psql', '-XAtq', '-v', 'ON_ERROR_STOP=1', '-v', 'VERBOSITY=verbose',
                            '-d', self.db, '-c', sql], capture_output=True, text=True, env=env,
                           errors='replace')
        if p.returncode == 0:
            return p.stdout, None, p.stderr
        m = re.search(r'ERROR:\s+([0-9A-Z]{5}):', p.stderr)
        return p.stdout, m.group(1) if m else 'CONNECTION', p.stderr

    def value(self, sql):
        """The output of sql, which must succeed (waiting up to a minute for a server that
        restarts after a crash)."""
        for _ in range(60):
            out, state, err = self.run(sql)
            if state != 'CONNECTION' or 'not yet accepting connections' not in err:
                break
            time.sleep(1)
        if state:
            raise RuntimeError(f'{sql}: {err}')
        return out.rstrip('\n')


def quote_literal(v):
    return "'" + v.replace("'", "''") + "'"


class Target:
    """An archived partition and the questions asked of it, with the intact archive's answers."""

    def __init__(self, sql, row):
        (self.table, self.parent, self.archive, self.range_from, self.range_to, partattnum,
         indexes) = row.split('\t')
        self.partcol = sql.value(f"SELECT quote_ident(attname) FROM pg_attribute WHERE attrelid = "
                                 f"{quote_literal(self.table)}::regclass AND attnum = {partattnum}")
        self.families = [self.parse_family(sql, f) for f in indexes.split(';')]
        self.questions = self.make_questions(sql)
        self.answers = {}

    def parse_family(self, sql, text):
        cf, _, columns = text.split(':')[:3]
        out = []
        for c in columns.split(','):
            attnum, direction = re.match(r'(\d+)([ad])', c).groups()
            name, typ = sql.value(
                f"SELECT quote_ident(attname), format_type(atttypid, atttypmod) FROM pg_attribute "
                f"WHERE attrelid = {quote_literal(self.table)}::regclass AND attnum = {attnum}"
            ).split('|')
            out.append((name, typ, direction == 'd'))
        return cf, out

    def in_range(self):
        return f'{self.partcol} >= {self.range_from} AND {self.partcol} < {self.range_to}'

    def sample(self, sql, columns, n):
        """n rows of values (text) of columns, none NULL, chosen the same way each time."""
        cols = ', '.join(f'{c}::text' for c, _, _ in columns)
        not_null = ' AND '.join(f'{c} IS NOT NULL' for c, _, _ in columns)
        out = sql.value(f"SELECT {cols} FROM {self.table} WHERE {not_null} "
                        f"ORDER BY md5(({cols})::text) LIMIT {n}")
        return [line.split('|') for line in out.splitlines() if line]

    def make_questions(self, sql):
        """name -> SQL: the whole partition, rows by key, first pages by each index."""
        q = {'all': f"SELECT count(*), md5(string_agg(t::text, '|' ORDER BY t::text)) "
                    f"FROM {self.parent} t WHERE {self.in_range()}"}
        rowkey = self.families[0][1]
        for i, values in enumerate(self.sample(sql, rowkey, 3)):
            cond = ' AND '.join(f'{c} = {quote_literal(v)}::{typ}'
                                for (c, typ, _), v in zip(rowkey, values))
            q[f'key{i}'] = f"SELECT t::text FROM {self.parent} t WHERE {self.in_range()} AND {cond}"
        for cf, columns in self.families[1:]:
            first = columns[:1]
            for values in self.sample(sql, first, 1):
                (c, typ, _), v = first[0], values[0]
                order = ', '.join(f'{n} {"DESC" if d else "ASC"}' for n, _, d in columns)
                where = f"{self.in_range()} AND {c} = {quote_literal(v)}::{typ}"
                q[f'page_{cf}'] = (f"SELECT t::text FROM {self.parent} t WHERE {where} "
                                   f"ORDER BY {order} LIMIT 10")
                cols = ', '.join(n for n, _, _ in columns)
                q[f'entries_{cf}'] = (f"SELECT {cols} FROM {self.parent} WHERE {where} "
                                      f"ORDER BY {order} LIMIT 10")
        q['verify_archive'] = f"SELECT permanode.verify_archive({quote_literal(self.table)})"
        return q


def setup(args, sql):
    """The database, its ledger ingested and its oldest ranges archived (unless --reuse)."""
    if not args.reuse:
        admin = Sql('postgres')
        admin.value(f'DROP DATABASE IF EXISTS {DB}')
        admin.value(f'CREATE DATABASE {DB}')
        sql.value('CREATE EXTENSION permanode CASCADE')
        sql.value("SELECT count(permanode.set_chunk_size(table_name, 20)) "
                  "FROM permanode.ledger_tables")
        ledger = os.path.join(args.work, 'ledger.ndjson')
        subprocess.run([args.cli, 'generate', '--milestones', str(args.milestones),
                        '--blocks-per-milestone', '3-6', '--seed', '7', '-o', ledger], check=True)
        subprocess.run([args.cli, 'ingest', '--no-measure', ledger, '--dsn', dsn()], check=True,
                       stdout=subprocess.DEVNULL)
        subprocess.run([args.cli, 'archive', '--from-range', '0', '--to-range',
                        str(args.archived_ranges), '--dsn', dsn()], check=True,
                       stdout=subprocess.DEVNULL)
    archives = os.path.join(args.work, 'archives.json')
    if not args.reuse:
        json.dump(dict(line.split('|') for line in sql.value(
            "SELECT ftrelid::regclass, option_value FROM pg_foreign_table, "
            "pg_options_to_table(ftoptions) WHERE option_name = 'archive'").splitlines()),
            open(archives, 'w'))
    # a run that stopped inside a case left its table on the corrupted copy
    for table, archive in json.load(open(archives)).items():
        sql.value(f"ALTER FOREIGN TABLE {table} OPTIONS (SET archive {quote_literal(archive)})")
    rows = sql.value(r"""
        SELECT c.oid::regclass, p.oid::regclass, o.archive, o.range_from, o.range_to,
               o.partition_attnum, o.indexes
        FROM pg_foreign_table t
        JOIN pg_class c ON c.oid = t.ftrelid
        JOIN pg_inherits i ON i.inhrelid = c.oid
        JOIN pg_class p ON p.oid = i.inhparent
        CROSS JOIN LATERAL (
            SELECT max(option_value) FILTER (WHERE option_name = 'archive') AS archive,
                   max(option_value) FILTER (WHERE option_name = 'range_from') AS range_from,
                   max(option_value) FILTER (WHERE option_name = 'range_to') AS range_to,
                   max(option_value) FILTER (WHERE option_name = 'partition_attnum')
                       AS partition_attnum,
                   max(option_value) FILTER (WHERE option_name = 'indexes') AS indexes
            FROM pg_options_to_table(t.ftoptions)) o
        ORDER BY 1""").replace('|', '\t')
    return [Target(sql, row) for row in rows.splitlines()]


def dsn():
    return ' '.join(f'{k}={os.environ[v]}' for k, v in
                    [('host', 'PGHOST'), ('port', 'PGPORT'), ('user', 'PGUSER')]
                    if v in os.environ) + f' dbname={DB}'


def archive_root(sql):
    data = sql.value("SELECT current_setting('data_directory')")
    root = sql.value("SELECT current_setting('permanode_fdw.archive_root')") or 'permanode_archive'
    oid = sql.value('SELECT oid FROM pg_database WHERE datname = current_database()')
    return os.path.join(data, root, oid), os.stat(data)


# --- corruptions ---------------------------------------------------------------------------------
# Each takes (rng, archive directory) and returns a description, or None when it does not apply
# to that archive (then another is chosen); a lie rewrites the manifest.

def files_of(directory, pattern=None):
    out = []
    for base, _, names in os.walk(directory):
        for name in names:
            if pattern is None or re.search(pattern, name):
                out.append(os.path.join(base, name))
    return sorted(out)


def flip_bytes(rng, path, count, burst=False):
    data = bytearray(open(path, 'rb').read())
    if not data:
        return 'empty file'
    where = []
    if burst:
        at = rng.randrange(len(data))
        for i in range(at, min(at + 64, len(data))):
            data[i] = 0x55
        where.append(at)
    else:
        for _ in range(count):
            at = rng.randrange(len(data))
            data[at] ^= rng.randrange(1, 256)
            where.append(at)
    open(path, 'wb').write(data)
    return f'{os.path.basename(path)} at {where}'


def sst_flip(rng, d):
    return 'flip ' + flip_bytes(rng, rng.choice(files_of(d, r'\.sst$')), rng.randint(1, 8))


def sst_burst(rng, d):
    return '64 bytes overwritten in ' + flip_bytes(rng, rng.choice(files_of(d, r'\.sst$')), 0, True)


def file_flip(rng, d):
    return 'flip ' + flip_bytes(rng, rng.choice(files_of(d, r'^(?!.*\.sst$)')), 1)


def truncate(rng, d):
    path = rng.choice(files_of(d))
    size = os.path.getsize(path)
    keep = rng.randrange(size) if size else 0
    os.truncate(path, keep)
    return f'truncate {os.path.basename(path)} from {size} to {keep} bytes'


def delete(rng, d):
    path = rng.choice(files_of(d))
    os.remove(path)
    return f'remove {os.path.basename(path)}'


def swap_ssts(rng, d):
    ssts = files_of(d, r'\.sst$')
    if len(ssts) < 2:
        return None
    a, b = rng.sample(ssts, 2)
    tmp = a + '.swap'
    os.rename(a, tmp)
    os.rename(b, a)
    os.rename(tmp, b)
    return f'swap {os.path.basename(a)} and {os.path.basename(b)}'


def manifest_lie(rng, d):
    """Rewrites the manifest with a lie that changes it (tried again while one changes nothing)."""
    path = os.path.join(d, 'permanode_manifest.json')
    text = open(path).read()
    for _ in range(50):
        m = json.loads(text)
        what = tell_lie(rng, m, path, text)
        if what is not None:
            return what
    return 'lie none (every lie tried changed nothing)'


def tell_lie(rng, m, path, text):
    """One lie told in m (then written to path); None when it changed nothing."""
    families = [m['rows']] + m['indexes']
    f = rng.choice(families)
    col = rng.randrange(len(m['columns']))
    other = rng.randrange(len(m['columns']))
    lies = {
        'row_count': lambda: m.__setitem__('row_count', m['row_count'] + rng.choice([-1, 1, 1000])),
        'entries': lambda: f.__setitem__('entries', rng.choice([0, f['entries'] + 1])),
        'range': lambda: m.__setitem__(rng.choice(['range_from', 'range_to']),
                                       m['range_from'] + rng.choice([-2, -1, 1, 2])),
        'partition_column': lambda: m.__setitem__('partition_column_index', other),
        'swap_columns': lambda: m['columns'].__setitem__(
            slice(None), swapped(m['columns'], col, other)),
        'column_type': lambda: m['columns'][col].update(
            {k: m['columns'][other][k] for k in ('type_oid', 'type_name')}),
        'column_kind': lambda: m['columns'][col].update(
            {k: m['columns'][other][k] for k in ('kind', 'fixed_len')}),
        'column_name': lambda: m['columns'][col].__setitem__('name', m['columns'][other]['name']),
        'dictionary': lambda: m['columns'][col].__setitem__(
            'dictionary', not m['columns'][col].get('dictionary', False)),
        'drop_column': lambda: m['columns'].pop(col),
        'swap_families': lambda: swap_cf(rng, m),
        'drop_family': lambda: m['indexes'].pop(rng.randrange(len(m['indexes'])))
        if m['indexes'] else None,
        'key_column': lambda: rng.choice(f['key'] + f['suffix']).__setitem__('column', other),
        'key_desc': lambda: flip_flag(rng.choice(f['key'] + f['suffix']), 'desc'),
        'key_nulls_first': lambda: flip_flag(rng.choice(f['key'] + f['suffix']), 'nulls_first'),
        'key_not_null': lambda: flip_flag(rng.choice(f['key'] + f['suffix']), 'not_null'),
        'include': lambda: f['include'].append({'column': other, 'desc': False,
                                                'nulls_first': False}),
        'partition_paths': lambda: [p.update({'schema': 'pg_catalog', 'name': 'pg_class'})
                                    for p in m['partitions']],
        'checksum': lambda: m.__setitem__('checksum', m['checksum'] ^ 1),
        'dictionary_entries': lambda: m.__setitem__('dictionary_entries',
                                                    m['dictionary_entries'] + 1),
        'format_version': lambda: m.__setitem__('format_version', 2),
    }
    name = rng.choice(sorted(lies) + ['truncated_text', 'not_json'])
    if name == 'truncated_text':
        open(path, 'w').write(text[:rng.randrange(len(text))])
        return 'lie truncated_text'
    if name == 'not_json':
        open(path, 'w').write('permanode')
        return 'lie not_json'
    lies[name]()
    if m == json.loads(text):
        return None
    open(path, 'w').write(json.dumps(m, indent=1))
    return f'lie {name} (family {f["cf"]}, columns {col} and {other})'


def swapped(items, a, b):
    items = list(items)
    items[a], items[b] = items[b], items[a]
    return items


def flip_flag(key_column, flag):
    key_column[flag] = not key_column.get(flag, False)


def swap_cf(rng, m):
    if len(m['indexes']) >= 2:
        a, b = rng.sample(m['indexes'], 2)
        a['cf'], b['cf'] = b['cf'], a['cf']


KINDS = {'sst_flip': sst_flip, 'sst_burst': sst_burst, 'file_flip': file_flip,
         'truncate': truncate, 'delete': delete, 'swap_ssts': swap_ssts,
         'manifest_lie': manifest_lie}


# --- the campaign --------------------------------------------------------------------------------

class Campaign:
    def __init__(self, args):
        self.args = args
        self.sql = Sql(DB)
        self.outcomes = defaultdict(Counter)  # kind -> outcome -> count
        self.lie_outcomes = defaultdict(Counter)  # lie -> outcome -> count
        self.findings = []
        self.log_offset = 0

    def prepare(self):
        self.targets = setup(self.args, self.sql)
        self.root, self.owner = archive_root(self.sql)
        self.pristine = os.path.join(self.args.work, 'pristine')
        shutil.rmtree(self.pristine, ignore_errors=True)
        for t in self.targets:
            shutil.copytree(os.path.join(self.root, t.archive), os.path.join(self.pristine,
                                                                             t.archive))
            for name, q in t.questions.items():
                out, state, err = self.sql.run(q)
                if state:
                    raise RuntimeError(f'{t.table} {name} fails on the intact archive: {err}')
                t.answers[name] = out
            t.verify = self.cli_verify(t)
            if t.verify[0] != 0:
                raise RuntimeError(f'permanode verify fails on the intact ledger: {t.verify}')
        self.log_offset = os.path.getsize(self.args.server_log)
        print(f'{len(self.targets)} archived partitions: '
              + ', '.join(f'{t.table} ({len(t.questions)} questions)' for t in self.targets))

    def cli_verify(self, t):
        p = subprocess.run([self.args.cli, 'verify', '--dsn', dsn(), '--from-range',
                            t.range_from, '--to-range', t.range_to, '--no-legacy'],
                           capture_output=True, text=True, errors='replace', timeout=300)
        return p.returncode, p.stdout, p.stderr

    def corrupted_copy(self, rng, t, case):
        """A corrupted copy of t's archive under the archive root; its name and description."""
        name = f'corrupt_{self.args.seed}_{case}'
        path = os.path.join(self.root, name)
        shutil.rmtree(path, ignore_errors=True)
        shutil.copytree(os.path.join(self.pristine, t.archive), path)
        for base, dirs, files in os.walk(path):
            for n in dirs + files:
                os.chmod(os.path.join(base, n), 0o700 if n in dirs else 0o600)
        what = None
        while what is None:
            kind = rng.choice(sorted(KINDS))
            what = KINDS[kind](rng, path)
        for base, dirs, files in os.walk(path):
            for n in dirs + files:
                os.chown(os.path.join(base, n), self.owner.st_uid, self.owner.st_gid)
        os.chown(path, self.owner.st_uid, self.owner.st_gid)
        return name, path, kind, what

    def judge(self, t, name, out, state, err):
        """'same', 'corrupted', 'error:SQLSTATE', or a finding ('finding:...')."""
        if state is None:
            return 'same' if out == t.answers[name] else 'finding:wrong answer'
        if state == 'XX001':
            return 'corrupted'
        if state in ('57014', 'CONNECTION'):
            return 'finding:' + ('hang' if state == '57014' else 'no answer')
        relname = t.table.split('.')[-1].strip('"')
        if state.startswith('XX') or not re.search(r'archive|' + re.escape(relname), err):
            return f'finding:unclear error {state}'
        return f'error:{state}'

    def judge_verify(self, t, got):
        code, out, err = got
        if (code, out) == t.verify[:2]:
            return 'same'
        if code != 0 and ('XX001' in err or 'corrupted' in err):
            return 'corrupted'
        if code == 6:
            return 'mismatch reported'
        if code != 0 and re.search(r'archive', err):
            return 'error:cli'
        return 'finding:verify ' + ('passed with another output' if code == 0 else 'unclear')

    def server_problems(self):
        with open(self.args.server_log, errors='replace') as log:
            log.seek(self.log_offset)
            text = log.read()
            self.log_offset = log.tell()
        crashes = [line for line in text.splitlines() if CRASH_PATTERNS.search(line)]
        try:
            Sql('postgres').value('SELECT 1')
        except RuntimeError:
            crashes.append('the server does not answer')
        return crashes

    def run_case(self, case):
        rng = random.Random(f'{self.args.seed}:{case}')
        t = rng.choice(self.targets)
        name, path, kind, what = self.corrupted_copy(rng, t, case)
        self.sql.value(f"ALTER FOREIGN TABLE {t.table} OPTIONS (SET archive "
                       f"{quote_literal(name)})")
        results = {}
        try:
            for q, text in t.questions.items():
                out, state, err = self.sql.run(text)
                results[q] = (self.judge(t, q, out, state, err), state, err.strip()[:500])
            results['permanode verify'] = (self.judge_verify(t, self.cli_verify(t)), None, '')
        finally:
            self.sql.value(f"ALTER FOREIGN TABLE {t.table} OPTIONS (SET archive "
                           f"{quote_literal(t.archive)})")
        crashes = self.server_problems()
        verdicts = [v for v, _, _ in results.values()]
        worst = next((v for v in verdicts if v.startswith('finding')),
                     'corrupted' if 'corrupted' in verdicts else
                     next((v for v in verdicts if v.startswith('error')), 'same'))
        if crashes:
            worst = 'finding:crash'
        self.outcomes[kind][worst] += 1
        if kind == 'manifest_lie':
            self.lie_outcomes[what.split()[1]][worst] += 1
        if worst.startswith('finding'):
            keep = os.path.join(self.args.work, 'findings', name)
            shutil.rmtree(keep, ignore_errors=True)
            shutil.copytree(path, os.path.join(keep, 'archive'))
            json.dump({'seed': self.args.seed, 'case': case, 'table': t.table, 'kind': kind,
                       'corruption': what, 'results': results, 'server_log': crashes,
                       'expected': t.answers}, open(os.path.join(keep, 'case.json'), 'w'),
                      indent=1)
            self.findings.append((case, t.table, what, worst))
            print(f'case {case}: {worst}: {t.table}: {what}', flush=True)
        shutil.rmtree(path, ignore_errors=True)
        if self.args.verbose:
            print(f'case {case} {t.table} {what}: {worst} '
                  + ' '.join(f'{q}={v}' for q, (v, _, _) in results.items()), flush=True)
        return worst

    def report(self, cases, seconds):
        print(f'\n{cases} cases in {seconds:.0f} s (seed {self.args.seed}); '
              f'{len(self.findings)} findings')
        for title, table in (('corruption', self.outcomes), ('manifest lie', self.lie_outcomes)):
            print(f'\n{title:<20} ' + 'outcomes (worst answer of each case)')
            for kind in sorted(table):
                print(f'{kind:<20} ' + ', '.join(f'{o} {n}' for o, n in
                                                  sorted(table[kind].items())))
        for case, table, what, worst in self.findings:
            print(f'finding: case {case} ({table}): {what}: {worst}')


def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('--cli', required=True, help='the permanode CLI')
    p.add_argument('--server-log', required=True, help="the server's log file")
    p.add_argument('--work', required=True, help='scratch directory (ledger, copies, findings)')
    p.add_argument('--minutes', type=float, default=10)
    p.add_argument('--cases', type=int, help='stop after this many cases')
    p.add_argument('--first-case', type=int, default=0, help='start at this case')
    p.add_argument('--seed', type=int, default=1)
    p.add_argument('--milestones', type=int, default=200)
    p.add_argument('--archived-ranges', type=int, default=5)
    p.add_argument('--reuse', action='store_true', help='keep the database of a previous run')
    p.add_argument('--replay', help='SEED:CASE[,SEED:CASE...]: run these cases again')
    p.add_argument('--verbose', action='store_true')
    args = p.parse_args()
    os.makedirs(args.work, exist_ok=True)
    campaign = Campaign(args)
    if args.replay:
        args.reuse = args.verbose = True
        campaign.prepare()
        for replay in args.replay.split(','):
            args.seed, case = map(int, replay.split(':'))
            campaign.run_case(case)
        return 1 if campaign.findings else 0
    campaign.prepare()
    start = time.time()
    case = args.first_case
    while time.time() - start < args.minutes * 60 and (args.cases is None or
                                                      case < args.first_case + args.cases):
        campaign.run_case(case)
        case += 1
    campaign.report(case - args.first_case, time.time() - start)
    return 1 if campaign.findings else 0


if __name__ == '__main__':
    sys.exit(main())

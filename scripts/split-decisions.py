#!/usr/bin/env python3
"""Split docs/decisions.md entries into docs/decisions/NNN-title.md records.

Usage: python3 scripts/split-decisions.py [--source FILE] [--start N] [--from-heading "Heading text"]
  --source FILE      the old single-file decisions (default docs/decisions.md), e.g. a branch's copy:
                     git show BRANCH:docs/decisions.md > /tmp/old-decisions.md
  --start N          number of the first record written (default 1)
  --from-heading H   convert only the entries from heading H to the end of the file
Each record gets its date from git (the day its heading first appeared in docs/decisions.md),
Status: accepted, and Context / Decision / Consequences cut at the entry's own
"Context:", "Decision…:" and "Consequence(s)…:" markers. Review every record by hand afterwards.
Prints "NNN<TAB>file<TAB>heading" per record written.
"""
import re, subprocess, sys, textwrap, os

args = sys.argv[1:]
start = int(args[args.index('--start') + 1]) if '--start' in args else 1
from_heading = args[args.index('--from-heading') + 1] if '--from-heading' in args else None

source = args[args.index('--source') + 1] if '--source' in args else 'docs/decisions.md'
src = open(source).read().split('\n')
entries, cur = [], None
for line in src:
    if line.startswith('## '):
        cur = [line[3:].strip(), []]
        entries.append(cur)
    elif cur is not None:
        cur[1].append(line)
if from_heading:
    idx = [e[0] for e in entries].index(from_heading)
    entries = entries[idx:]

def slug(title):
    t = re.sub(r'\s*\((issue|spec|migration)[^)]*\)', '', title)
    t = t.replace('`', '').lower()
    t = re.sub(r'[^a-z0-9]+', '-', t).strip('-')
    words = t.split('-')
    out = ''
    for w in words:
        if len(out) + len(w) + 1 > 48:
            break
        out = (out + '-' + w) if out else w
    return out or 'decision'

def date_of(title):
    r = subprocess.run(['git', 'log', '--follow', '--format=%as', '-S## ' + title, '--',
                        'docs/decisions.md'], capture_output=True, text=True).stdout.split()
    return r[-1] if r else subprocess.run(['date', '+%F'], capture_output=True, text=True).stdout.strip()

LIST = re.compile(r'\s*([-*+] |\d+\. |\|)')

def paragraphs(lines):
    paras, buf = [], []
    for l in lines:
        if l.strip() == '':
            if buf: paras.append(buf); buf = []
        elif LIST.match(l) and buf and not LIST.match(buf[0]):
            # a list right after a prose line: the prose is its own paragraph
            paras.append(buf); buf = [l]
        else:
            buf.append(l)
    if buf: paras.append(buf)
    return paras

def is_prose(p):
    return not re.match(r'\s*([-*+] |\d+\. |\||```|    |>)', p[0])

def wrap(text):
    return '\n'.join(textwrap.wrap(text, 100, break_long_words=False, break_on_hyphens=False))

def render(paras):
    out = []
    for p in paras:
        if isinstance(p, str):
            out.append(wrap(p) if p.strip() else '')
        elif is_prose(p):
            out.append(wrap(' '.join(l.strip() for l in p)))
        else:
            out.append('\n'.join(p))
    return '\n\n'.join(x for x in out if x.strip())

DEC = re.compile(r'(?:^|(?<=[\s.;)]))Decision\b(?:[^:.\n(]|\([^)]*\)){0,120}?:\s*')
CON = re.compile(r'(?:^|(?<=[\s.;)]))Consequences?\b[^:.\n]{0,60}?:\s*')
CTX = re.compile(r'^Context\s*:\s*')

def split(body):
    paras = paragraphs(body)
    # flatten prose paragraphs to strings, keep blocks
    flat = [(' '.join(l.strip() for l in p) if is_prose(p) else p) for p in paras]
    ctx, dec, con = [], [], []
    section = 'ctx'
    has_marker = any(isinstance(i, str) and DEC.search(CTX.sub('', i)) for i in flat)
    for item in flat:
        if not isinstance(item, str):
            {'ctx': dec if section == 'ctx' else dec, 'dec': dec, 'con': con}[section].append(item)
            continue
        text = CTX.sub('', item) if section == 'ctx' else item
        if section == 'ctx':
            m = DEC.search(text)
            if m:
                before, text = text[:m.start()].strip(), text[m.end():]
                if before: ctx.append(before)
                # keep a qualifier written into the marker: "Decision, on PostgreSQL (…):", "Decision (`file.ts`):"
                q = m.group(0).strip()[len('Decision'):].rstrip(': ').strip()
                if q.startswith(','):
                    q = q[1:].strip()
                    q = q[:1].upper() + q[1:]
                elif q.startswith('(') and q.endswith(')'):
                    q = 'In ' + q[1:-1]
                if q:
                    text = q + ': ' + text if text.strip() else q + ':'
                section = 'dec'
            elif not ctx and not has_marker:
                # no marker: first sentence is the context
                s = re.split(r'(?<=[.;])\s+(?=[A-Z`])', text, 1)
                ctx.append(s[0])
                text = s[1] if len(s) > 1 else ''
                section = 'dec'
            else:
                ctx.append(text); continue
        if section == 'dec':
            m = CON.search(text)
            if m:
                before, after = text[:m.start()].strip(), text[m.end():].strip()
                if before: dec.append(before)
                if after: con.append(after[0].upper() + after[1:])
                section = 'con'
                continue
            if text.strip(): dec.append(text)
            continue
        # after the consequence paragraph: later paragraphs are further decision text
        dec.append(text)
    return ctx, dec, con

OUT = os.environ.get('OUT', 'docs/decisions')
os.makedirs(OUT, exist_ok=True)
# every record's file name by title (existing records too), for cross-references
known = {}
for f in sorted(os.listdir('docs/decisions')):
    if re.match(r'\d{3}-', f) and not f.startswith('000'):
        first = open('docs/decisions/' + f).readline()
        known[first[2:].strip()] = f
for i, (title, body) in enumerate(entries):
    known[title] = '%03d-%s.md' % (start + i, slug(title))

def link(text):
    def rep(m):
        t = m.group(1)
        return '[%s](%s)' % (t, known[t]) if t in known else m.group(0)
    return re.sub(r'"([^"\n]{6,200})"', rep, text)

for i, (title, body) in enumerate(entries):
    n = start + i
    name = '%03d-%s.md' % (n, slug(title))
    ctx, dec, con = split(body)
    if not dec and ctx:
        # no markers and one sentence: the whole entry is the decision
        dec, ctx = ctx, []
    if not ctx:
        ctx = ['The spec and the design leave this open.']
    if not con:
        con = ['No consequence is recorded beyond the decision itself.']
    cap = lambda xs: [(x[0].upper() + x[1:]) if isinstance(x, str) and x else x for x in xs]
    ctx, dec, con = cap(ctx), cap(dec), cap(con)
    text = '# %s\n\nDate: %s\n\nStatus: accepted\n\n## Context\n\n%s\n\n## Decision\n\n%s\n\n## Consequences\n\n%s\n' % (
        title, date_of(title), render(ctx), render(dec), render(con))
    open(OUT + '/' + name, 'w').write(link(text))
    print('%03d\t%s\t%s' % (n, name, title))

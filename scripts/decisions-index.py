#!/usr/bin/env python3
"""Write docs/decisions.md: the index of docs/decisions/NNN-title.md (run from the repository root)."""
import glob, re
rows = []
for p in sorted(glob.glob('docs/decisions/[0-9][0-9][0-9]-*.md')):
    name = p.split('/')[-1]
    if name.startswith('000-'):
        continue
    s = open(p).read()
    title = s.split('\n', 1)[0][2:].strip()
    status = re.search(r'^Status: (.*)$', s, re.M).group(1).strip()
    status = re.sub(r'\]\((\d{3}-)', r'](decisions/\1', status)
    rows.append('| %s | [%s](decisions/%s) | %s |' % (name[:3], title.replace('|', '\\|'), name, status))
head = """# Decisions

Choices the spec or the design left open, one record each in [`docs/decisions/`](decisions/)
(context, decision, consequences, date, status), as epic-stack keeps them. A new decision goes in
`docs/decisions/` as the next number, `NNN-short-title.md`, written from
[the template](decisions/000-template.md); a decision that replaces an earlier one marks the earlier
`Status: superseded by NNN`. Benchmark figures go in [`bench/README.md`](../bench/README.md), with
only the conclusion and a link in the record.

| No. | Decision | Status |
| --- | --- | --- |
"""
open('docs/decisions.md', 'w').write(head + '\n'.join(rows) + '\n')

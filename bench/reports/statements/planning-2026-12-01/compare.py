# Question-by-question comparison of two eval runs (bench/eval.ts results.json): the ranked passages,
# Recall@2/5/10, rr, seeds, the offline answer and its containment. A run of the first N questions
# (--limit N) is compared with the other run's first N.
import json, sys
old = json.load(open(sys.argv[1])); new = json.load(open(sys.argv[2]))
n = min(len(old['questions']), len(new['questions']))
qs_old, qs_new = old['questions'][:n], new['questions'][:n]
keys = ['passages', 'recall_at_2', 'recall_at_5', 'recall_at_10', 'rr', 'seeds', 'offline_answer', 'answer_containment']
assert [q['id'] for q in qs_old] == [q['id'] for q in qs_new]
diffs = 0
for qo, qn in zip(qs_old, qs_new):
    for mode in qo['modes']:
        for k in keys:
            if qo['modes'][mode].get(k) != qn['modes'][mode].get(k):
                diffs += 1
                print('DIFF', qo['id'], mode, k, qo['modes'][mode].get(k), '->', qn['modes'][mode].get(k))
modes = list(qs_old[0]['modes'])
print(f"{old['summary']['dataset']}: {n} questions x {len(modes)} modes ({', '.join(modes)}), {diffs} differing fields")
def mean(qs, mode, k): return round(sum(q['modes'][mode][k] for q in qs) / len(qs), 4)
def p50(qs, mode):
    xs = sorted(q['modes'][mode]['dbMs'] for q in qs); return round(xs[len(xs) // 2], 2)
for mode in modes:
    cells = [f"{mean(qs_old, mode, k)} / {mean(qs_new, mode, k)}" for k in ['recall_at_2', 'recall_at_5', 'recall_at_10', 'rr']]
    print(f"| {mode} | {' | '.join(cells)} | {p50(qs_old, mode)} / {p50(qs_new, mode)} |")

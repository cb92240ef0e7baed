# Question-by-question comparison of two eval runs (results.json): passages (ranked ids), recalls, rr, seeds, offline answer.
import json, sys
old = json.load(open(sys.argv[1])); new = json.load(open(sys.argv[2]))
keys = ['passages', 'recall_at_2', 'recall_at_5', 'recall_at_10', 'rr', 'seeds', 'offline_answer', 'answer_containment']
assert [q['id'] for q in old['questions']] == [q['id'] for q in new['questions']]
diffs = 0
for qo, qn in zip(old['questions'], new['questions']):
    for mode in qo['modes']:
        for k in keys:
            if qo['modes'][mode].get(k) != qn['modes'][mode].get(k):
                diffs += 1
                print('DIFF', qo['id'], mode, k, qo['modes'][mode].get(k), '->', qn['modes'][mode].get(k))
n = len(old['questions'])
print(f"{old['summary']['dataset']}: {n} questions x {len(qo['modes'])} modes ({', '.join(qo['modes'])}), {diffs} differing fields")
for mode, s in old['summary']['modes'].items():
    t = new['summary']['modes'][mode]
    print(f"| {mode} | {s['recall_at_2']} / {t['recall_at_2']} | {s['recall_at_5']} / {t['recall_at_5']} | {s['recall_at_10']} / {t['recall_at_10']} | {s['mrr']} / {t['mrr']} | {s['p50_db_ms']} / {t['p50_db_ms']} |")

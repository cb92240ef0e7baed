"""Writes server/ingest/common-words.txt: the words that general English text writes in lower case.

Counts lowercase words in the three QA corpora (Wikipedia passages) in ../shared/data or bench/data;
a word written in lower case at least 3 times is common. The linker (server/ingest/linking.ts) asks
for context before it links a curated name that is one of them ("iron", "set", "pain").
"""
import collections, json, os, re, sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
base = next((p for p in [os.path.join(root, '..', 'shared', 'data'), os.path.join(root, 'bench', 'data')]
             if os.path.exists(os.path.join(p, 'musique', 'corpus.jsonl'))), None)
if base is None:
    sys.exit('no QA corpora found in ../shared/data or bench/data')
count = collections.Counter()
for name in ['musique', '2wikimultihopqa', 'hotpotqa']:
    with open(os.path.join(base, name, 'corpus.jsonl'), encoding='utf8') as f:
        for line in f:
            for m in re.finditer(r"(?<![\w'’-])([a-z]+)(?![\w'’-])", json.loads(line)['text']):
                count[m.group(1)] += 1
words = sorted(w for w, c in count.items() if c >= 3 and len(w) >= 2)
with open(os.path.join(root, 'server', 'ingest', 'common-words.txt'), 'w', encoding='utf8') as f:
    f.write('# Lowercase words written at least 3 times in lower case in the MuSiQue, 2WikiMultiHopQA and HotpotQA corpora\n'
            '# (general English Wikipedia text): a curated name equal to one of them needs context to be linked.\n'
            '# Regenerate: python3 scripts/common-words.py\n' + '\n'.join(words) + '\n')
print(len(words), 'words')

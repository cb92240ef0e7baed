import json,sys
K=20; FLOOR=0.05
def recall(ids,gold,k=5):
    top=ids[:k]; g=set(gold); return len(g & set(top))/len(g)
def reconstruct(ps):
    # graph rank over candidates with g>=floor, by g desc then id
    gs=[p for p in ps if p['g'] and p['g']>0 and p['g']>=FLOOR]
    gs.sort(key=lambda p:(-p['g'],p['id']))
    grank={id(p):i+1 for i,p in enumerate(gs)}
    out=[]
    for p in ps:
        gr=grank.get(id(p))
        gpart=1/(K+gr) if gr else 0
        t=p['s']-gpart
        tr=(1/t-K) if t>1e-9 else None
        out.append(dict(p,gr=gr,tr=tr))
    return out
def fuse(cands, fn):
    sc=[(fn(c),c) for c in cands]
    sc.sort(key=lambda x:(-x[0],x[1]['id']))
    return [c['id'] for _,c in sc]
def rr(r,k=K): return 1/(k+r) if r else 0
variants={
 'current': lambda c: rr(c['gr'])+rr(c['tr']),
}
def interleave(cands, first='g', ng=None):
    g=sorted([c for c in cands if c['gr']],key=lambda c:c['gr'])
    t=sorted([c for c in cands if c['tr'] is not None],key=lambda c:c['tr'])
    out=[];seen=set();gi=ti=0;turn=first
    while len(out)<10 and (gi<len(g) or ti<len(t)):
        if turn=='g' and gi<len(g):
            c=g[gi];gi+=1
        elif ti<len(t):
            c=t[ti];ti+=1
        else:
            c=g[gi];gi+=1
        if c['id'] not in seen: seen.add(c['id']);out.append(c['id'])
        turn='t' if turn=='g' else 'g'
    return out
def run(path):
    data=json.load(open(path))
    res={}
    for mode in ['gated','ppr']:
        tot={}
        for q in data:
            ps=q['modes'][mode]; gold=q['gold']
            c=reconstruct(ps)
            ids=[p['id'] for p in ps]
            tot.setdefault('stored',[]).append(recall(ids,gold))
            for name,fn in variants.items():
                tot.setdefault(name,[]).append(recall(fuse(c,fn),gold))
            for k in [5,10,40]:
                tot.setdefault(f'rrfk{k}',[]).append(recall(fuse(c,lambda x: rr(x['gr'],k)+rr(x['tr'],k)),gold))
            tot.setdefault('interleave-g',[]).append(recall(interleave(c,'g'),gold))
            tot.setdefault('interleave-t',[]).append(recall(interleave(c,'t'),gold))
            # guarantee graph #1 and text #1 then rrf
            base=fuse(c,lambda x: rr(x['gr'])+rr(x['tr']))
            g1=[x['id'] for x in sorted([x for x in c if x['gr']],key=lambda x:x['gr'])][:1]
            t1=[x['id'] for x in sorted([x for x in c if x['tr'] is not None],key=lambda x:x['tr'])][:1]
            pin=list(dict.fromkeys(g1+t1+base))
            tot.setdefault('pin-g1t1',[]).append(recall(pin,gold))
            g2=[x['id'] for x in sorted([x for x in c if x['gr']],key=lambda x:x['gr'])][:2]
            pin=list(dict.fromkeys(g2+base))
            tot.setdefault('pin-g2',[]).append(recall(pin,gold))
            # score-aware graph vote
            tot.setdefault('g*rr',[]).append(recall(fuse(c,lambda x: (x['g'] or 0)*rr(x['gr'])*2 + rr(x['tr'])),gold))
        res[mode]={k:round(sum(v)/len(v),3) for k,v in tot.items()}
    return res
for s in sys.argv[1:]:
    r=run(f'/tmp/s9/dump-{s}.json')
    for m,v in r.items(): print(s,m,v)

def dd(ids): return list(dict.fromkeys(ids))
def recall(ids,gold,k=5):
    top=dd(ids)[:k]; g=set(gold); return len(g & set(top))/len(g)
def run2(path):
    data=json.load(open(path)); res={}
    for mode in ['gated','ppr']:
        tot={}
        for q in data:
            ps=q['modes'][mode]; gold=q['gold']; c=reconstruct(ps)
            base=fuse(c,lambda x: rr(x['gr'])+rr(x['tr']))
            gl=[x['id'] for x in sorted([x for x in c if x['gr']],key=lambda x:x['gr'])]
            tl=[x['id'] for x in sorted([x for x in c if x['tr'] is not None],key=lambda x:x['tr'])]
            for ng in range(0,4):
                for nt in range(0,3):
                    tot.setdefault(f'g{ng}t{nt}',[]).append(recall(gl[:ng]+tl[:nt]+base,gold))
        res[mode]={k:round(sum(v)/len(v),3) for k,v in tot.items()}
    return res
print('---')
for s in sys.argv[1:]:
    r=run2(f'/tmp/s9/dump-{s}.json')
    for m,v in r.items(): print(s,m,v)

def run3(path):
    data=json.load(open(path)); res={}
    for mode in ['gated','ppr']:
        tot={}; bw={}
        for q in data:
            ps=q['modes'][mode]; gold=q['gold']; c=reconstruct(ps)
            sc={x['id']:0 for x in c}
            for x in c: sc[x['id']]=max(sc[x['id']], rr(x['gr'])+rr(x['tr']))
            base=fuse(c,lambda x: rr(x['gr'])+rr(x['tr']))
            gl=[x['id'] for x in sorted([x for x in c if x['gr']],key=lambda x:x['gr'])]
            tl=[x['id'] for x in sorted([x for x in c if x['tr'] is not None],key=lambda x:x['tr'])]
            r0=recall(base,gold); r02=recall(base,gold,2)
            for ng,nt in [(2,1),(3,1),(4,1),(5,1),(3,0),(4,0)]:
                pins=set(gl[:ng]+tl[:nt])
                order=sorted(dd(base),key=lambda i:(0 if i in pins else 1, -sc[i], i))
                r=recall(order,gold); r2=recall(order,gold,2)
                k=f'g{ng}t{nt}'
                tot.setdefault(k,[]).append(r); tot.setdefault(k+'@2',[]).append(r2)
                b=bw.setdefault(k,[0,0]); b[0]+= r>r0; b[1]+= r<r0
            tot.setdefault('base@2',[]).append(r02)
        res[mode]={k:round(sum(v)/len(v),3) for k,v in tot.items()}; res[mode+' better/worse']=bw
    return res
print('===')
for s in sys.argv[1:]:
    r=run3(f'/tmp/s9/dump-{s}.json')
    for m,v in r.items(): print(s,m,v)

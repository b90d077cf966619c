#!/usr/bin/env python3
# Lists import cycles between the modules of a Rust source tree (uses of
# crate::module, super::module and the crate-root re-exports), ignoring
# #[cfg(test)] modules and comments. Usage: scripts/module-cycles.py crates/rcute/src
# Exits 1 when there is a cycle.
import re,os,collections,sys
root=sys.argv[1]
mods={}
for dp,dn,fn in os.walk(root):
    for f in fn:
        if f.endswith('.rs'):
            p=os.path.join(dp,f)
            rel=os.path.relpath(p,root)[:-3].replace('/mod','').replace('/','::')
            if rel in ('lib','mod'): continue
            mods[rel]=open(p).read()
names=sorted(mods,key=len,reverse=True)
dep=collections.defaultdict(set)
for m,s in mods.items():
    s=re.sub(r'#\[cfg\(test\)\]\s*mod tests\s*\{.*','',s,flags=re.S)
    s='\n'.join(l for l in s.split('\n') if not l.strip().startswith('//'))
    parent=m.rsplit('::',1)[0] if '::' in m else ''
    for x in re.findall(r'crate::([a-z_0-9]+(?:::[a-z_0-9]+)*)',s):
        for n in names:
            if x==n or x.startswith(n+'::'):
                if n!=m: dep[m].add(n)
                break
    R={'Layout':'layout','Stride':'layout','Scalar':'stride','ArithTuple':'stride','HTuple':'htuple','HRef':'htuple','Error':'error','ErrorKind':'error','Result':'error','Swizzle':'swizzle','SwizzledLayout':'swizzle','Tiler':'tiler','TilerRef':'tiler','IntoTiler':'tiler','Shape':'shape','Coord':'shape','IntoShape':'convert','IntoStride':'convert','IntoCoord':'convert','IntoHTuple':'convert'}
    for grp in re.findall(r'crate::\{([^}]*)\}',s):
        for x in re.findall(r'\b([A-Z]\w*)\b',grp):
            if x in R and R[x]!=m: dep[m].add(R[x])
    for x in re.findall(r'crate::([A-Z]\w*)',s):
        if x in R and R[x]!=m: dep[m].add(R[x])
    for x in re.findall(r'super::([a-z_0-9]+)',s):
        n=(parent+'::'+x) if parent else x
        if n in mods and n!=m: dep[m].add(n)
idx={};low={};st=[];on=set();out=[];c=[0]
sys.setrecursionlimit(10000)
def sc(v):
    idx[v]=low[v]=c[0];c[0]+=1;st.append(v);on.add(v)
    for w in dep[v]:
        if w not in idx: sc(w);low[v]=min(low[v],low[w])
        elif w in on: low[v]=min(low[v],idx[w])
    if low[v]==idx[v]:
        comp=[]
        while True:
            w=st.pop();on.discard(w);comp.append(w)
            if w==v:break
        if len(comp)>1: out.append(comp)
for v in list(mods):
    if v not in idx: sc(v)
for comp in out:
    print(sorted(comp))
    for a in comp:
        print('   ',a,'->',sorted(d for d in dep[a] if d in comp))
print('cycles:',len(out))
sys.exit(1 if out else 0)

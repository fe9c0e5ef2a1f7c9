# Per kernel of the two finest levels in `miniapp poisson --level-kernels` outputs named BUILD_MESH_ROUND.txt:
# µs, counted MB and % of the copy bandwidth, each run; and each solve's iterations and seconds.
# Usage: python3 summary.py DIR [BUILD_A BUILD_B]   (default: before after)
import sys,re,os
d=sys.argv[1]
names=tuple(sys.argv[2:4]) if len(sys.argv)>=4 else ('before','after')
def parse(f):
    t=open(f).read()
    res={}
    lvl=None
    for line in t.splitlines():
        m=re.match(r'level (\d+):',line)
        if m: lvl=int(m.group(1)); continue
        m=re.match(r'\s+(\S+)\s+(.+?)\s+(\d+)\s+([\d.e+]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)$',line)
        if m and lvl is not None:
            res[(lvl,m.group(2).strip())]=(float(m.group(4)),float(m.group(5)),float(m.group(7)))
        m=re.match(r'\s+all calls of the level\s+([\d.e+]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)',line)
        if m and lvl is not None: res[(lvl,'all calls')]=(float(m.group(1)),float(m.group(2)),float(m.group(4)))
    m=re.search(r'^\s*amg\s+([\d.]+)\s+(\d+)\s+([\d.]+)',t,re.M)
    if m: res['solve']=(int(m.group(2)),float(m.group(3)))
    return res
for mesh in ('hex','tet'):
    rows=[(b,r,parse(f'{d}/{b}_{mesh}_{r}.txt')) for r in (1,2) for b in names if os.path.exists(f'{d}/{b}_{mesh}_{r}.txt')]
    if not rows: continue
    keys=[k for k in rows[0][2] if k!='solve']
    print(f'== {mesh}: solve (iterations, s):', ' | '.join(f"{b}{r} {x.get('solve')}" for b,r,x in rows))
    for k in keys:
        print(f'  L{k[0]} {k[1][:28]:28s}', ' | '.join(f"{b[:6]}{r} {x[k][1]:9.1f}us {x[k][0]/1e6:7.1f}MB {x[k][2]:6.1f}%" for b,r,x in rows if k in x))

import sys,re,collections,statistics
# Summarises an ab.sh output: per kernel or solve, the range of base's and new's times and the ratio
# of their medians. Usage: python3 summarise.py ab.txt
vals=collections.defaultdict(lambda: {'base':[], 'new':[]})
cur=None
for line in open(sys.argv[1]):
    m=re.match(r'== round \d+, (base|new)',line)
    if m: cur=m.group(1); continue
    if cur is None: continue
    f=line.split()
    if line.startswith('spmv_sell') or line.startswith('spmv_csr'):
        vals[f'{f[0]} {f[1]} {f[2]}'][cur].append(float(f[6]))  # us
    elif line.startswith('poisson') and (': total' in line or ': spmv' in line):
        label=line.split(':')[0]+' '+line.split(':')[1].split()[0]
        nums=line.split(':')[-1].split()
        vals[label][cur].append(float(nums[4]))  # seconds column
    elif line.startswith('cavity-3d'):
        vals['cavity-3d 64^3 step ms'][cur].append(float(re.search(r'([\d.]+) ms',line).group(1)))
for k,v in vals.items():
    if not v['base'] or not v['new']: continue
    b=statistics.median(v['base']); n=statistics.median(v['new'])
    print(f"{k:55s} base {min(v['base']):10.4f}-{max(v['base']):10.4f}  new {min(v['new']):10.4f}-{max(v['new']):10.4f}  new/base {n/b:6.3f}")

# Prints a statement's tokens: comments dropped (outside strings), whitespace collapsed. Two files with
# the same output are the same Cypher statement.
import sys
def norm(text):
    out=[]; i=0; q=''; n=len(text)
    while i<n:
        c=text[i]
        if q:
            out.append(c)
            if c=='\\': out.append(text[i+1]); i+=2; continue
            if c==q: q=''
            i+=1; continue
        if c in "'\"`": q=c; out.append(c); i+=1; continue
        if text.startswith('//',i):
            j=text.find('\n',i); i=n if j<0 else j; out.append(' '); continue
        if c.isspace(): out.append(' '); i+=1; continue
        out.append(c); i+=1
    s=''.join(out)
    import re
    return re.sub(' +',' ',s).strip()
a=norm(open(sys.argv[1]).read()); b=norm(open(sys.argv[2]).read())
print('same' if a==b else 'DIFFERENT')
if a!=b:
    k=next(i for i in range(min(len(a),len(b))) if a[i]!=b[i]); print(a[k-80:k+80]); print(b[k-80:k+80])

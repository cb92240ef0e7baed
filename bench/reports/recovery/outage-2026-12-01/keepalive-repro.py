# Clients that honour Retry-After on a reused keep-alive connection (http.client, as urllib3 uses it),
# waiting the advised 5 s plus 0-2 s, against a Node server with the given keepAliveTimeout (ms) whose
# event loop is busy. Usage: python3 keepalive-repro.py 5000   (then 65000)
import http.client, os, subprocess, sys, time, threading, collections
child = subprocess.Popen(['node', os.path.join(os.path.dirname(os.path.abspath(__file__)), 'keepalive-server.mjs'), sys.argv[1], 'busy'], stdout=subprocess.PIPE)
port = int(child.stdout.readline())
errors = collections.Counter(); ok = [0]
def client(k):
    conn = http.client.HTTPConnection('127.0.0.1', port)
    for i in range(4):
        wait = 5
        try:
            conn.request('POST', '/', body='{"q":1}', headers={'content-type': 'application/json'})
            r = conn.getresponse(); r.read(); ok[0] += 1; wait = int(r.getheader('retry-after'))
        except Exception as e:
            errors[type(e).__name__] += 1; conn.close(); conn = http.client.HTTPConnection('127.0.0.1', port)
        time.sleep(wait + (k % 40) * 50 / 1000)
ts = [threading.Thread(target=client, args=(k,)) for k in range(40)]
[t.start() for t in ts]; [t.join() for t in ts]
print({'keepAliveTimeout': int(sys.argv[1]), 'answered': ok[0], 'socketErrors': dict(errors)})
child.kill()

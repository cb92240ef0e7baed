import http from 'node:http';
const server = http.createServer((req, res) => { req.resume(); req.on('end', () => { res.setHeader('retry-after', '5'); res.writeHead(503); res.end('{}'); }); });
server.keepAliveTimeout = Number(process.argv[2]);
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
if (process.argv[3] === 'busy') setInterval(() => { const t = Date.now() + 20; while (Date.now() < t); }, 25);

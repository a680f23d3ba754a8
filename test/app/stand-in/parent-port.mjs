// Preloaded (--import) into every process the stand-in's utilityProcess.fork starts: gives it
// Electron's `process.parentPort` (messages arrive as `{ data }`, postMessage sends), and makes it end
// when the app process goes away, as a utility process does.
import { EventEmitter } from 'node:events';

const port = new EventEmitter();
port.postMessage = (message) => process.send?.(message);
port.start = () => undefined;
process.on('message', (data) => port.emit('message', { data, ports: [] }));
process.on('disconnect', () => process.exit(0));
Object.defineProperty(process, 'parentPort', { value: port });

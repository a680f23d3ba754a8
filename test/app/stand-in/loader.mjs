// `node --import ./loader.mjs out/main/index.js`: maps the `electron` import of the built app to the
// stand-in (module customization hooks), and nothing else.
import { register } from 'node:module';

register('./resolve-electron.mjs', import.meta.url);

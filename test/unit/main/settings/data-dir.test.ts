import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultDataDir } from '../../../../src/main/settings/data-dir.ts';

describe('defaultDataDir', () => {
  it('follows Electron userData per platform', () => {
    expect(defaultDataDir({ HOME: '/Users/ann' }, 'darwin')).toBe('/Users/ann/Library/Application Support/Tingxie');
    expect(defaultDataDir({ APPDATA: 'C:\\Users\\ann\\AppData\\Roaming' }, 'win32')).toBe('C:\\Users\\ann\\AppData\\Roaming\\Tingxie');
    expect(defaultDataDir({ HOME: '/home/ann' }, 'linux')).toBe('/home/ann/.config/Tingxie');
    expect(defaultDataDir({ HOME: '/home/ann', XDG_CONFIG_HOME: '/cfg' }, 'linux')).toBe('/cfg/Tingxie');
    expect(defaultDataDir({ HOME: '/home/ann', XDG_CONFIG_HOME: 'relative' }, 'linux')).toBe('/home/ann/.config/Tingxie');
  });

  it('TINGXIE_DATA_DIR wins', () => {
    expect(defaultDataDir({ HOME: '/home/ann', TINGXIE_DATA_DIR: '/tmp/tx' }, 'linux')).toBe('/tmp/tx');
    expect(defaultDataDir({ TINGXIE_DATA_DIR: 'rel' }, 'linux')).toBe(path.resolve('rel'));
    expect(defaultDataDir({ HOME: '/h', TINGXIE_DATA_DIR: '  ' }, 'linux')).toBe('/h/.config/Tingxie');
  });
});

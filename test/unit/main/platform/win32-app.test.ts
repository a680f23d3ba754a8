import { createRequire } from 'node:module';
import type * as KoffiModule from 'koffi';
import { describe, expect, it } from 'vitest';
import { exeNameOf, WIN32_APP_DECLARATIONS, win32InputContext, type Win32AppApi } from '../../../../src/main/platform/win32-app.ts';
import { pickRule, appRulesSchema } from '../../../../src/shared/config/app-rules.ts';

/**
 * The Windows foreground app for the input context and the app rules: the decisions over a fake
 * user32/kernel32 (any OS), and the real koffi parsing the declarations (user32.dll itself is only there
 * on Windows: the calls are not made here).
 */

function fake(over: Partial<Win32AppApi> = {}): Win32AppApi {
  return {
    foregroundWindow: () => 0x1234n,
    processIdOf: () => 4242,
    imagePathOf: () => 'C:\\Program Files\\Tencent\\WeChat\\WeChat.exe',
    titleOf: () => 'WeChat\n(3)',
    ...over,
  };
}

describe('the Windows input context', () => {
  it('names the app by its executable (WeChat.exe → WeChat), the title only at detailed; a rule for WeChat.exe or WeChat matches', async () => {
    const basic = await win32InputContext(() => fake()).capture('basic');
    expect(basic).toEqual({ app_name: 'WeChat', bundle_id: 'WeChat.exe' });
    expect(await win32InputContext(() => fake()).capture('detailed')).toEqual({ app_name: 'WeChat', bundle_id: 'WeChat.exe', window_title: 'WeChat (3)' });
    expect(pickRule(appRulesSchema.parse([{ app: 'wechat.exe', mode: 'a' }]), basic)?.mode).toBe('a');
    expect(pickRule(appRulesSchema.parse([{ app: 'WeChat', mode: 'b' }]), basic)?.mode).toBe('b');
  });

  it('no foreground window, a process it may not open (elevated), or no koffi: no context, no throw', async () => {
    expect(await win32InputContext(() => fake({ foregroundWindow: () => 0n })).capture('basic')).toBeNull();
    expect(await win32InputContext(() => fake({ imagePathOf: () => null })).capture('basic')).toBeNull();
    expect(await win32InputContext(() => fake({ processIdOf: () => 0 })).capture('basic')).toBeNull();
    const missing = win32InputContext(() => {
      throw new Error('Cannot find module koffi');
    });
    expect(await missing.capture('detailed')).toBeNull();
  });

  it('the file name of a path, either slash', () => {
    expect(exeNameOf('C:\\Windows\\System32\\notepad.exe')).toBe('notepad.exe');
    expect(exeNameOf('D:/Apps/Code.exe')).toBe('Code.exe');
  });

  it('every declaration parses as a C prototype in the real koffi', () => {
    const koffi = createRequire(import.meta.url)('koffi') as typeof KoffiModule;
    for (const decl of [...Object.values(WIN32_APP_DECLARATIONS.user32), ...Object.values(WIN32_APP_DECLARATIONS.kernel32)]) {
      expect(() => koffi.proto(decl), decl).not.toThrow();
    }
  });
});

/**
 * App rules (config `app_rules`): the mode and the output a dictation gets from the app it is dictated
 * into, read at key-down (the input context: src/main/platform/input-context.ts). One rule names an app
 * — the macOS app name or bundle id, the Windows executable name, the X11 WM_CLASS (class or instance) —
 * and/or a window-title fragment and/or a browser domain; every part it names must match. The first
 * enabled rule that matches wins (the list is in the user's order), so a narrow rule goes above a broad
 * one. Matching is case-insensitive and linear in the lengths of the strings compared.
 *
 * Lives in src/shared: main (the dictation), the CLI (`enhance --dry-run --app`) and the Settings
 * editor all use the same matcher.
 */
import { z } from 'zod';

/** The key pressed after a paste (config output.submit_key): `mod` is Cmd on macOS, Ctrl elsewhere. */
export const SUBMIT_KEYS = ['none', 'enter', 'shift+enter', 'mod+enter'] as const;
export type SubmitKeySetting = (typeof SUBMIT_KEYS)[number];

/** A rule's output: the global setting, or paste / copy only. */
export const RULE_METHODS = ['default', 'paste', 'copy'] as const;

const modeIdOrKeep = z.union([z.literal(''), z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'a mode id (file name in enhance_modes/)')]);

/** One rule. `mode` '' keeps the configured mode; `method`/`submit` 'default' keep the output settings. */
export const appRuleSchema = z
  .object({
    /** What the user calls the app, shown on the indicator and the panel ("微信 → 口语"); '' = the app as matched. */
    label: z.string().trim().max(64).default(''),
    /** App name, bundle id (macOS), executable (Windows, with or without .exe) or WM_CLASS part (X11); '' = any app. */
    app: z.string().trim().max(200).default(''),
    /** A fragment of the window title ('' = any title). */
    title: z.string().trim().max(200).default(''),
    /** A browser's domain; its subdomains match too ('' = any). */
    domain: z.string().trim().toLowerCase().max(253).default(''),
    mode: modeIdOrKeep.default(''),
    method: z.enum(RULE_METHODS).default('default'),
    submit: z.enum(['default', ...SUBMIT_KEYS]).default('default'),
    enabled: z.boolean().default(true),
  })
  .refine((r) => r.app !== '' || r.title !== '' || r.domain !== '', 'a rule needs an app, a window title or a domain');

export type AppRule = z.infer<typeof appRuleSchema>;

/** The list as config.json keeps it. */
export const appRulesSchema = z.array(appRuleSchema).max(200).default([]);

/** What a rule is matched against (the input context's fields, WenZi's record shape). */
export interface AppIdentity {
  readonly app_name: string;
  readonly bundle_id: string;
  readonly window_title?: string;
  readonly browser_domain?: string;
}

/** What the matching rule chose, ready for a dictation. */
export interface RuleChoice {
  /** Its index in the list (Settings highlights it). */
  readonly index: number;
  /** What the indicator calls it: the rule's label, else the app's name. */
  readonly label: string;
  /** The mode it picks (absent: the configured mode stays). */
  readonly mode?: string;
  readonly method?: 'paste' | 'copy';
  readonly submit?: SubmitKeySetting;
}

/** An app name as compared: lower case, without a Windows `.exe` and surrounding space. */
export function appKey(s: string): string {
  return s.trim().toLowerCase().replace(/\.exe$/, '');
}

function appMatches(want: string, who: AppIdentity): boolean {
  if (want === '') return true;
  const w = appKey(want);
  return appKey(who.app_name) === w || appKey(who.bundle_id) === w;
}

function domainMatches(want: string, have: string | undefined): boolean {
  if (want === '') return true;
  if (have === undefined || have === '') return false;
  const h = have.toLowerCase();
  const w = want.replace(/^www\./, '');
  return h === w || h.endsWith(`.${w}`);
}

/** Whether `rule` matches the app `who` (a disabled rule never does). */
export function ruleMatches(rule: AppRule, who: AppIdentity): boolean {
  if (!rule.enabled || !appMatches(rule.app, who)) return false;
  if (rule.title !== '' && !(who.window_title ?? '').toLowerCase().includes(rule.title.toLowerCase())) return false;
  return domainMatches(rule.domain, who.browser_domain);
}

/** The first enabled rule matching `who`, as a choice; null when none does or nothing is known of the app. */
export function pickRule(rules: readonly AppRule[], who: AppIdentity | null): RuleChoice | null {
  if (who === null) return null;
  const index = rules.findIndex((r) => ruleMatches(r, who));
  const rule = rules[index];
  if (rule === undefined) return null;
  return {
    index,
    label: rule.label !== '' ? rule.label : who.app_name,
    ...(rule.mode !== '' ? { mode: rule.mode } : {}),
    ...(rule.method !== 'default' ? { method: rule.method } : {}),
    ...(rule.submit !== 'default' ? { submit: rule.submit } : {}),
  };
}

/**
 * The input-context level the rules need read at key-down: a title or domain rule needs `detailed`,
 * an app rule `basic`. What the prompt and the record get stays ai_enhance.input_context's.
 */
export function levelForRules(rules: readonly AppRule[], configured: 'off' | 'basic' | 'detailed'): 'off' | 'basic' | 'detailed' {
  const live = rules.filter((r) => r.enabled);
  if (configured === 'detailed' || live.some((r) => r.title !== '' || r.domain !== '')) return 'detailed';
  return live.length > 0 ? 'basic' : configured;
}

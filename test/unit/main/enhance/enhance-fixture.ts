import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HistoryStore } from '../../../../src/main/history/store/history-store.ts';
import { Enhancer, type EnhancerSettings } from '../../../../src/main/enhance/enhancer.ts';
import { VocabularyStore } from '../../../../src/main/enhance/vocabulary-store.ts';
import type { NewHistoryRecord } from '../../../../src/shared/history/record.ts';
import { startOpenAiTestServer, type OpenAiTestServer, type OpenAiTestServerOptions } from '../../../helpers/openai-test-server.ts';

/** A fake-looking but realistic API key; tests assert it never leaks. */
export const SECRET_KEY = 'sk-live-TINGXIE-0123456789abcdefSECRET';

/** Settings with a short deadline so fault tests stay fast. */
export function testSettings(over: Partial<EnhancerSettings> = {}): EnhancerSettings {
  return {
    mode: 'proofread', providerId: 'test', model: 'test-model', thinking: false, lang: 'zh', timeoutMs: 600, connectTimeoutMs: 600, maxRetries: 2,
    maxOutputTokens: 512, history: { enabled: true, maxEntries: 10, refreshThreshold: 50, maxHistoryChars: 6000 },
    vocabulary: { enabled: true, maxLlmEntries: 5 }, contextNote: '', ...over,
  };
}

/** A confirmed record of a mode. */
export function confirmed(mode: string, asr: string, final = asr): NewHistoryRecord {
  return {
    asr_text: asr, enhanced_text: final, final_text: final, enhance_mode: mode, preview_enabled: true, stt_model: 'whisper', llm_model: 'test-model',
    user_corrected: asr !== final, audio_duration: 2, language: 'zh', source: 'voice',
  };
}

/** Everything a test needs: temp data dir, real history store and vocabulary db, the test server and an enhancer. */
export interface Fixture {
  readonly dir: string;
  readonly server: OpenAiTestServer;
  readonly history: HistoryStore;
  readonly vocabulary: VocabularyStore;
  readonly enhancer: Enhancer;
  readonly logs: string[];
  close(): Promise<void>;
}

/** Builds a fixture. */
export async function makeFixture(serverOpts: OpenAiTestServerOptions = {}, settings: Partial<EnhancerSettings> = {}): Promise<Fixture> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-'));
  const server = await startOpenAiTestServer(serverOpts);
  const history = await HistoryStore.open({ dataDir: dir, warn: () => {} });
  const vocabulary = VocabularyStore.open(path.join(dir, 'vocabulary.db'));
  const logs: string[] = [];
  const enhancer = await Enhancer.open(
    {
      dataDir: dir, history, vocabulary,
      provider: (id) => (id === 'test' ? { id, baseURL: server.baseURL, apiKey: SECRET_KEY } : undefined),
      log: (level, m) => logs.push(`${level}: ${m}`),
    },
    testSettings(settings),
  );
  return {
    dir, server, history, vocabulary, enhancer, logs,
    async close() {
      await server.close();
      vocabulary.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

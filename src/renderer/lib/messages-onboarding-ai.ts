/** Strings of the setup guide's AI step (onboarding/ai-step.tsx), spread into messages-onboarding.ts. */

/** English strings of the AI step. */
export const onboardingAiEn = {
  'onboarding.ai.heading': 'Tidy the text and learn from your corrections',
  'onboarding.ai.intro': 'An AI model can fix punctuation, typos and the names it heard wrong, and learn from the dictations you confirm.',
  'onboarding.ai.choice': 'Where should the AI run?',
  'onboarding.ai.local.title': 'On this computer',
  'onboarding.ai.local.help': 'Private and offline. Downloads a language model once.',
  'onboarding.ai.service.title': 'A service you already use',
  'onboarding.ai.service.help': 'Ollama, LM Studio or a cloud provider with your API key. Verify sends one real request.',
  'onboarding.ai.off.title': 'Not now',
  'onboarding.ai.off.help': 'Dictations are pasted as recognised. You can turn AI on later in Settings › AI.',
  'onboarding.ai.learn': 'Learn from what I confirm',
  'onboarding.ai.learn.help': 'Your confirmed dictations are kept on this computer and shown to the model, so a name it got wrong once stays fixed.',
  'onboarding.ai.model': 'Model',
  'onboarding.ai.params': '{params}B parameters',
  'onboarding.ai.recommended': 'recommended for this computer',
  'onboarding.ai.ready': '“{model}” is installed: your dictations will be tidied on this computer.',
  'onboarding.ai.waiting': 'AI turns on when the download finishes.',
  'onboarding.ai.service.on': 'AI is on with the provider below. Press Verify to check it answers.',
  'onboarding.ai.off.on': 'AI stays off.',
} as const;

/** Chinese strings of the AI step. */
export const onboardingAiZh: Readonly<Record<keyof typeof onboardingAiEn, string>> = {
  'onboarding.ai.heading': '整理文字，并从你的更正中学习',
  'onboarding.ai.intro': 'AI 模型可以修正标点、错字和听错的名字，并从你确认过的听写中学习。',
  'onboarding.ai.choice': 'AI 在哪里运行？',
  'onboarding.ai.local.title': '在这台电脑上',
  'onboarding.ai.local.help': '保护隐私，离线可用。需要下载一次语言模型。',
  'onboarding.ai.service.title': '你已在用的服务',
  'onboarding.ai.service.help': 'Ollama、LM Studio，或填入 API 密钥的云服务。“验证”会发送一次真实请求。',
  'onboarding.ai.off.title': '暂不使用',
  'onboarding.ai.off.help': '听写按识别结果直接粘贴。之后可在“设置 › AI”中开启。',
  'onboarding.ai.learn': '从我确认的内容中学习',
  'onboarding.ai.learn.help': '你确认过的听写保存在这台电脑上并提供给模型，听错过一次的名字以后就能写对。',
  'onboarding.ai.model': '模型',
  'onboarding.ai.params': '{params}B 参数',
  'onboarding.ai.recommended': '推荐这台电脑使用',
  'onboarding.ai.ready': '“{model}”已安装：听写将在这台电脑上整理。',
  'onboarding.ai.waiting': '下载完成后 AI 即开启。',
  'onboarding.ai.service.on': 'AI 已开启，使用下面的服务。点“验证”确认它能回答。',
  'onboarding.ai.off.on': 'AI 保持关闭。',
};

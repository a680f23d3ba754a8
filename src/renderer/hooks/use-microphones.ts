import { useEffect, useState } from 'react';

/** Audio inputs the page can see, kept current when a device is plugged in (labels are empty until a page was granted the microphone once). */
export function useMicrophones(): readonly MediaDeviceInfo[] {
  const [devices, setDevices] = useState<readonly MediaDeviceInfo[]>([]);
  useEffect(() => {
    const md = typeof navigator !== 'undefined' ? navigator.mediaDevices : undefined;
    if (!md?.enumerateDevices) return;
    let live = true;
    const load = () => {
      md.enumerateDevices().then(
        (all) => live && setDevices(all.filter((d) => d.kind === 'audioinput' && d.deviceId !== 'default' && d.deviceId !== '')),
        () => undefined,
      );
    };
    load();
    md.addEventListener('devicechange', load);
    return () => {
      live = false;
      md.removeEventListener('devicechange', load);
    };
  }, []);
  return devices;
}

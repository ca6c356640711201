/** The remote desktop feature's texts in Chinese (§2 language 'ch'); English is in en.ts. */
import type { RemoteDesktopTranslation } from './en';

export const ch: RemoteDesktopTranslation = {
  tab: '远程桌面',
  title: '远程桌面',
  intro: '查看 {{device}} 的屏幕，并用鼠标和键盘控制它。',
  open: '打开远程桌面',
  notConnected: '请先连接设备：远程桌面通过设备的连接运行。',
  dialogTitle: '远程桌面：{{device}}',
  screenLabel: '{{device}} 的远程屏幕。点击即可控制；获得焦点时按键发送到设备。按 Esc 释放键盘。',
  connecting: '正在连接桌面…',
  failed: '远程桌面已停止：{{error}}',
  retry: '重试',
  close: '关闭',
  fullScreen: '全屏',
  exitFullScreen: '退出全屏',
  keyboardCaptured: '键盘正在控制设备。按 Esc 释放。',
  keyboardReleased: '点击屏幕即可控制。',
  windows: '打开的窗口',
  noWindows: '没有打开的窗口。',
  closeWindow: '关闭窗口 {{title}}',
  focused: '活动',
  untitled: '（无标题）',
  stats: '帧率 {{fps}} fps · 分辨率 {{resolution}} · 往返 {{rtt}} 毫秒',
  backend: { x11: '设备的显示器 (X11)', sim: '模拟桌面' },
  inputFailed: '输入未送达：{{error}}',
  windowsFailed: '窗口列表：{{error}}',
};

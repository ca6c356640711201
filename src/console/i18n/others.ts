/**
 * Other interface languages (§2: en, ch, es, jp, de, fr; "translations are largely incomplete").
 * Each holds a few strings; everything missing falls back to English.
 */
import type { PartialResource } from './en';

export const ch: PartialResource = {
  app: {
    closeDialog: '关闭对话框',
    closeNotification: '关闭通知',
    title: '边缘 AI 控制台',
    skipToContent: '跳到内容',
    loading: '加载中',
    backToDashboard: '返回仪表板',
  },
  nav: { dashboard: '仪表板', devices: '设备', cameras: '摄像头', toggleSidebar: '切换侧边栏' },
  user: { signOut: '退出登录', language: '语言' },
  login: { title: '登录', email: '电子邮件', password: '密码', submit: '登录' },
  devices: { previousPage: '上一页', nextPage: '下一页' },
};

export const es: PartialResource = {
  app: {
    closeDialog: 'Cerrar diálogo',
    closeNotification: 'Cerrar notificación',
    title: 'Consola de IA en el borde',
    loading: 'Cargando',
    backToDashboard: 'Volver al panel',
  },
  nav: { dashboard: 'Panel', devices: 'Dispositivos', cameras: 'Cámaras', toggleSidebar: 'Mostrar menú' },
  user: { signOut: 'Cerrar sesión', language: 'Idioma' },
  login: { title: 'Iniciar sesión', email: 'Correo electrónico', password: 'Contraseña', submit: 'Entrar' },
  devices: { previousPage: 'Página anterior', nextPage: 'Página siguiente' },
};

export const jp: PartialResource = {
  app: {
    closeDialog: 'ダイアログを閉じる',
    closeNotification: '通知を閉じる',
    title: 'エッジ AI コンソール',
    loading: '読み込み中',
    backToDashboard: 'ダッシュボードに戻る',
  },
  nav: {
    dashboard: 'ダッシュボード',
    devices: 'デバイス',
    cameras: 'カメラ',
    toggleSidebar: 'サイドバー切替',
  },
  user: { signOut: 'サインアウト', language: '言語' },
  login: { title: 'サインイン', email: 'メール', password: 'パスワード', submit: 'サインイン' },
  devices: { previousPage: '前のページ', nextPage: '次のページ' },
};

export const de: PartialResource = {
  app: {
    closeDialog: 'Dialog schließen',
    closeNotification: 'Benachrichtigung schließen',
    title: 'Edge-AI-Konsole',
    loading: 'Wird geladen',
    backToDashboard: 'Zurück zur Übersicht',
  },
  nav: {
    dashboard: 'Übersicht',
    devices: 'Geräte',
    cameras: 'Kameras',
    toggleSidebar: 'Seitenleiste umschalten',
  },
  user: { signOut: 'Abmelden', language: 'Sprache' },
  login: { title: 'Anmelden', email: 'E-Mail', password: 'Passwort', submit: 'Anmelden' },
  devices: { previousPage: 'Vorherige Seite', nextPage: 'Nächste Seite' },
};

export const fr: PartialResource = {
  app: {
    closeDialog: 'Fermer la boîte de dialogue',
    closeNotification: 'Fermer la notification',
    title: 'Console IA embarquée',
    loading: 'Chargement',
    backToDashboard: 'Retour au tableau de bord',
  },
  nav: {
    dashboard: 'Tableau de bord',
    devices: 'Appareils',
    cameras: 'Caméras',
    toggleSidebar: 'Basculer le menu',
  },
  user: { signOut: 'Se déconnecter', language: 'Langue' },
  login: { title: 'Connexion', email: 'E-mail', password: 'Mot de passe', submit: 'Se connecter' },
  devices: { previousPage: 'Page précédente', nextPage: 'Page suivante' },
};

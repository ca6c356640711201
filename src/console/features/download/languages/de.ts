/** The download feature's texts (de). */
import type { DownloadTranslation } from './en';

export const de: DownloadTranslation = {
  title: 'Download',
  intro:
    'Installieren Sie den Geräte-Client auf einem x86-Rechner oder einem NVIDIA Jetson, um ihn mit dieser Konsole zu verbinden.',
  loading: 'Wird geladen…',
  failed: 'Die Download-Seite konnte nicht gelesen werden: {{error}}',
  retry: 'Erneut versuchen',
  release: 'Geräte-Client',
  version: 'Version {{version}}',
  size: 'Größe',
  sha256: 'SHA-256',
  published: 'Veröffentlicht {{date}}',
  noRelease:
    'Dieser Server veröffentlicht noch keine Client-Version: ein Admin veröffentlicht eine (Software).',
  requirements: 'Was das Gerät braucht',
  x86: 'x86-Rechner',
  jetson: 'NVIDIA Jetson',
  reqNode: 'Node.js {{version}} oder neuer, mit npm',
  reqTools: 'curl, tar und sha256sum (für das Installationsskript)',
  reqFfmpeg: 'ffmpeg (Kameras: USB/V4L2, RTSP, Dateien)',
  reqDocker: 'Docker (Container und Inferenz-Engines)',
  reqGpu: 'NVIDIA-Treiber und NVIDIA Container Toolkit für eine GPU (optional)',
  reqJetpack: 'JetPack 5 oder 6 (L4T) mit seinem Docker und der NVIDIA-Runtime',
  reqJtop: 'jtop (jetson-stats) für detaillierte Jetson-Metriken (optional)',
  addDevice: 'Gerät hinzufügen',
  addIntro:
    'Benennen Sie das Gerät: Die Konsole legt es mit seinem Token an und gibt Ihnen den Befehl, den Sie darauf ausführen.',
  deviceName: 'Gerätename',
  kind: 'Gerätetyp',
  nameRequired: 'Geben Sie einen Namen für das Gerät ein.',
  create: 'Gerät und Befehl erstellen',
  createFailed: 'Das Gerät konnte nicht angelegt werden: {{error}}',
  created: 'Gerät {{name}} angelegt',
  tokenOnce:
    'Der Befehl enthält das Token des Geräts. Er wird nur einmal angezeigt: Kopieren Sie ihn jetzt. Das Token gilt 60 Tage.',
  curlTitle: 'Installation in einer Zeile (führt das Installationsskript aus)',
  curlHelp:
    'Auf dem Gerät ausführen: prüft die Voraussetzungen, lädt den Client, prüft seinen SHA-256 und startet ihn.',
  npmTitle: 'Aus einem Checkout des Konsolen-Repositorys',
  npmHelp: 'Im Repository auf dem Gerät nach npm install ausführen.',
  copyCurl: 'Installationsbefehl kopieren',
  copyNpm: 'npm-Befehl kopieren',
  another: 'Weiteres Gerät hinzufügen',
  openDevices: 'Zu den Geräten',
  generated: 'Erzeugt!',
};

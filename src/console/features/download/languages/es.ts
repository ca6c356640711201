/** The download feature's texts (es). */
import type { DownloadTranslation } from './en';

export const es: DownloadTranslation = {
  title: 'Descargas',
  intro:
    'Instale el cliente de dispositivo en un equipo x86 o en un NVIDIA Jetson para conectarlo a esta consola.',
  loading: 'Cargando…',
  failed: 'No se pudo leer la página de descargas: {{error}}',
  retry: 'Reintentar',
  release: 'Cliente de dispositivo',
  version: 'Versión {{version}}',
  size: 'Tamaño',
  sha256: 'SHA-256',
  published: 'Publicado el {{date}}',
  noRelease:
    'Este servidor aún no publica ninguna versión del cliente: la publica un administrador (Software).',
  requirements: 'Qué necesita el dispositivo',
  x86: 'Equipo x86',
  jetson: 'NVIDIA Jetson',
  reqNode: 'Node.js {{version}} o posterior, con npm',
  reqTools: 'curl, tar y sha256sum (para el instalador)',
  reqFfmpeg: 'ffmpeg (cámaras: USB/V4L2, RTSP, archivos)',
  reqDocker: 'Docker (contenedores y motores de inferencia)',
  reqGpu: 'Controlador NVIDIA y NVIDIA Container Toolkit para una GPU (opcional)',
  reqJetpack: 'JetPack 5 o 6 (L4T), con su Docker y el runtime de NVIDIA',
  reqJtop: 'jtop (jetson-stats) para métricas detalladas del Jetson (opcional)',
  addDevice: 'Añadir un dispositivo',
  addIntro:
    'Ponga nombre al dispositivo: la consola lo crea con su token y le da el comando que debe ejecutar en él.',
  deviceName: 'Nombre del dispositivo',
  kind: 'Tipo de dispositivo',
  nameRequired: 'Introduzca un nombre para el dispositivo.',
  create: 'Crear dispositivo y comando',
  createFailed: 'No se pudo crear el dispositivo: {{error}}',
  created: 'Dispositivo {{name}} creado',
  tokenOnce:
    'El comando contiene el token del dispositivo. Solo se muestra una vez: cópielo ahora. El token es válido 60 días.',
  curlTitle: 'Instalación en una línea (ejecuta el script de instalación)',
  curlHelp:
    'Ejecútelo en el dispositivo: comprueba los requisitos, descarga el cliente, verifica su SHA-256 y lo inicia.',
  npmTitle: 'Desde una copia del repositorio de la consola',
  npmHelp: 'Ejecútelo en el repositorio del dispositivo tras npm install.',
  copyCurl: 'Copiar el comando de instalación',
  copyNpm: 'Copiar el comando npm',
  another: 'Añadir otro dispositivo',
  openDevices: 'Ir a dispositivos',
  generated: '¡Generado!',
};

/** The power feature's texts in Spanish (§2 'es'). */
import type { PowerTranslation } from './en';

export const es: PowerTranslation = {
  tab: 'Energía',
  title: 'Energía',
  intro:
    'Reinicie o apague {{device}}, o reinicie su cliente. Reiniciar y apagar requieren permisos sudo en el dispositivo.',
  notConnected: 'Conecte el dispositivo para usar sus acciones de energía.',
  actions: {
    reboot: 'Reiniciar',
    shutdown: 'Apagar',
    forceShutdown: 'Forzar apagado',
    restartClient: 'Reiniciar cliente',
  },
  confirmTitle: {
    reboot: '¿Reiniciar el dispositivo?',
    shutdown: '¿Apagar el dispositivo?',
    forceShutdown: '¿Forzar el apagado del dispositivo?',
    restartClient: '¿Reiniciar el cliente?',
  },
  confirmText: {
    reboot: '{{device}} se reinicia y queda sin conexión un tiempo.',
    shutdown: '{{device}} se apaga y sigue apagado hasta que se encienda de nuevo.',
    forceShutdown:
      '{{device}} se apaga de inmediato, sin cerrar sus programas, y sigue apagado hasta que se encienda de nuevo.',
    restartClient: 'El cliente de {{device}} se reinicia 10 s después de confirmar.',
  },
  confirm: 'Confirmar',
  cancel: 'Cancelar',
  sudo: {
    title: 'Contraseña sudo',
    intro: 'Introduzca la contraseña sudo de {{device}}.',
    password: 'Contraseña',
    save: 'Guardar la contraseña en el dispositivo (cifrada)',
    submit: 'Continuar',
  },
  steps: {
    confirming: 'Esperando confirmación…',
    restartDelay: 'El cliente se reinicia en 10 s…',
    checking: 'Comprobando sudo…',
    askingSudo: 'Esperando la contraseña sudo…',
    sending: 'Enviando…',
    waitingOffline: 'Esperando a que el dispositivo se desconecte…',
    waitingOnline: 'Sin conexión: esperando a que el dispositivo vuelva…',
    waitingPoweredOn: 'Apagado: esperando a que se encienda de nuevo…',
    done: 'Hecho: el dispositivo vuelve a estar en línea.',
    failed: 'Error: {{error}}',
    cancelled: 'Cancelado.',
  },
  dismiss: 'Cerrar',
  saved: {
    label: 'Contraseña sudo guardada',
    yes: 'Sí',
    no: 'No',
    notNeeded: 'No hace falta (el cliente se ejecuta como root)',
    unknown: 'Leyendo…',
    remove: 'Eliminar',
    removeLabel: 'Eliminar la contraseña sudo guardada',
    failed: 'No se pudo leer: {{error}}',
  },
  texts: {
    emptyPassword: 'El campo de contraseña no puede estar vacío',
    invalidPassword: 'Contraseña no válida.',
    sudoRequired: 'Se requieren privilegios sudo',
    forceFailed: 'No se pudo forzar el apagado del dispositivo',
    success: 'Éxito',
    mayTakeMinutes: 'El dispositivo puede tardar unos minutos.',
    shutdownSuccessful: 'Apagado correcto',
  },
  flow: {
    backOnline: 'El dispositivo vuelve a estar en línea',
    notOffline: 'El dispositivo no se desconectó',
    notBack: 'El dispositivo no volvió a estar en línea',
    failed: 'La acción de energía falló',
  },
};

import { describe, expect, it } from 'vitest';
import {
  actionFailureMessage,
  actionKey,
  asChangedContainers,
  asDockerProcess,
  CONTAINER_EVENT_NAMES,
  CONTAINER_TEXTS,
  devicePlatform,
  imageCheckFailureMessage,
  imageCheckOutcome,
  imageRef,
  isCanceledError,
  isContainerAction,
  processAction,
  progressPercent,
  tagFitsDevice,
} from '../../../machines/containers/containerActionChecks';
import { textKeyOf } from '../../../src/console/features/containers/screens/texts';
import * as contract from '../../../src/protocol/containers';
import { container, process } from '../../model/containers/fixtures';

const coded = (code: string, message = '') => Object.assign(new Error(message), { code });

describe('container action checks (§4, §8)', () => {
  it('keeps the contract’s §8 texts and event names', () => {
    expect(CONTAINER_TEXTS).toEqual(contract.CONTAINER_TEXTS);
    expect(CONTAINER_EVENT_NAMES).toEqual(contract.CONTAINER_EVENTS);
  });

  it('reads a check-docker-image status: 200 create, 404 offer a download, anything else fail', () => {
    expect(imageCheckOutcome({ status: 200 })).toBe('present');
    expect(imageCheckOutcome({ status: 404 })).toBe('missing');
    expect(imageCheckOutcome({ status: 503 })).toBe('failed');
    expect(imageCheckOutcome({ status: 401 })).toBe('failed');
  });

  it('shows the device’s words with "Image check failed", or the status when it gave none', () => {
    expect(imageCheckFailureMessage({ status: 503, message: 'no Docker engine' })).toBe('no Docker engine');
    expect(imageCheckFailureMessage({ status: 500, message: '  ' })).toBe('HTTP 500');
  });

  it('maps command failures to the §8 Docker texts', () => {
    expect(actionFailureMessage(coded('invalid_reply', 'reply did not validate'))).toBe(
      'Unexpected response',
    );
    expect(actionFailureMessage(coded('unknown_process', 'unknown process'))).toBe('Unknown Docker Action');
    expect(actionFailureMessage(coded('internal_error', 'port 8888 is taken'))).toBe('port 8888 is taken');
    expect(actionFailureMessage(coded('internal_error'))).toBe('Container action has been failed');
    expect(actionFailureMessage(undefined)).toBe('Container action has been failed');
  });

  it('tells a canceled download from a failed one', () => {
    expect(isCanceledError(coded('aborted'))).toBe(true);
    expect(isCanceledError(coded('canceled'))).toBe(true);
    expect(isCanceledError(coded('not_found'))).toBe(false);
  });

  it('reads the overall percent of a progress message: its percent, else the layers’ downloadPercent', () => {
    const layers = [
      { id: 'a', status: 'Downloading', current: 50, total: 100 },
      { id: 'b', status: 'Pull complete', current: 0, total: 0 },
    ];
    expect(progressPercent({ image: 'x:1', layers, percent: 37.5 }, contract.downloadPercent)).toBe(37.5);
    expect(progressPercent({ percent: 140 }, contract.downloadPercent)).toBe(100);
    expect(progressPercent({ layers }, contract.downloadPercent)).toBe(contract.downloadPercent(layers));
    expect(progressPercent({ layers: [{ id: 'bad' }] }, contract.downloadPercent)).toBe(0);
    expect(progressPercent('50', contract.downloadPercent)).toBeNull();
    expect(progressPercent({}, contract.downloadPercent)).toBeNull();
  });

  it('keys an action by device and environment, or by the short container id without one', () => {
    expect(actionKey('dev-1', 'pytorch-lab')).toBe('dev-1:pytorch-lab');
    expect(actionKey('dev-1', null, 'c0ffee0123456789abcdef')).toBe('dev-1:c0ffee012345');
  });

  it('knows the four actions of §4 and what a Docker process runs', () => {
    expect(['create', 'start', 'stop', 'remove'].every(isContainerAction)).toBe(true);
    expect(isContainerAction('restart')).toBe(false);
    expect(processAction({ action: 'download' })).toBe('create');
    expect(processAction({ action: 'stop' })).toBe('stop');
  });

  it('fits tags to devices: chipset 0 is x86, anything else Jetson (§9)', () => {
    expect(devicePlatform('0')).toBe('x86');
    expect(devicePlatform('33')).toBe('jetson');
    expect(tagFitsDevice('any', '0')).toBe(true);
    expect(tagFitsDevice('jetson', '0')).toBe(false);
    expect(tagFitsDevice('jetson', '25')).toBe(true);
    expect(tagFitsDevice('x86', '25')).toBe(false);
    expect(imageRef('nvcr.io/nvidia/l4t-pytorch', 'r35')).toBe('nvcr.io/nvidia/l4t-pytorch:r35');
  });

  it('accepts link events only in the contract’s shape', () => {
    expect(asDockerProcess(process())).toEqual(process());
    expect(asDockerProcess({ ...process(), action: 'restart' })).toBeNull();
    expect(asDockerProcess({ ...process(), started: '1' })).toBeNull();
    expect(asDockerProcess(null)).toBeNull();
    expect(asChangedContainers({ containers: [container()] })).toEqual([container()]);
    expect(asChangedContainers({ containers: [{ Id: 1 }] })).toBeNull();
    expect(asChangedContainers([container()])).toBeNull();
  });

  it('finds the i18n key of a §8 text and none for the device’s own words', () => {
    expect(textKeyOf('Ongoing Process')).toBe('containers.texts.ongoingProcess');
    expect(textKeyOf('Container action has been failed')).toBe('containers.texts.actionHasFailed');
    expect(textKeyOf('port 8888 is taken')).toBeNull();
  });
});

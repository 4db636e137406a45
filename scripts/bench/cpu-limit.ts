import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const CGROUP_ROOT = '/sys/fs/cgroup';
/** CFS's accounting period: the quota is the share of it the process may run. */
const PERIOD_US = 100_000;

/** A Kubernetes CPU quantity ("250m", "1", "0.5") in millicores. */
export function millicores(quantity: string): number {
  const match = /^(\d+(?:\.\d+)?)(m?)$/.exec(quantity.trim());
  if (!match) throw new Error(`Cannot read the CPU quantity ${quantity}`);
  return match[2] === 'm' ? Number(match[1]) : Number(match[1]) * 1000;
}

/**
 * Holds a running process to `limitMillicores` of one core, as the kubelet holds a container to
 * its CPU limit: a cgroup of its own with a CFS quota (cgroup v2's cpu.max, or v1's cpu
 * controller). Needs root, as the kubelet has. `release` moves the process back and removes the group.
 */
export function limitCpu(pid: number, limitMillicores: number): { release: () => void } {
  const quotaUs = Math.round((limitMillicores / 1000) * PERIOD_US);
  const name = `bench-cpu-${pid}`;
  const v2 = existsSync(path.join(CGROUP_ROOT, 'cgroup.controllers'));
  const parent = v2 ? CGROUP_ROOT : path.join(CGROUP_ROOT, 'cpu');
  if (!existsSync(path.join(parent, 'cgroup.procs'))) {
    throw new Error(`No cgroup CPU controller at ${parent}: the per-replica rate needs one (run as root on Linux)`);
  }
  const group = path.join(parent, name);
  try {
    if (v2) {
      const enabled = readFileSync(path.join(CGROUP_ROOT, 'cgroup.subtree_control'), 'utf8');
      if (!enabled.split(/\s+/).includes('cpu'))
        writeFileSync(path.join(CGROUP_ROOT, 'cgroup.subtree_control'), '+cpu');
      mkdirSync(group);
      writeFileSync(path.join(group, 'cpu.max'), `${quotaUs} ${PERIOD_US}`);
    } else {
      mkdirSync(group);
      writeFileSync(path.join(group, 'cpu.cfs_period_us'), String(PERIOD_US));
      writeFileSync(path.join(group, 'cpu.cfs_quota_us'), String(quotaUs));
    }
    writeFileSync(path.join(group, 'cgroup.procs'), String(pid));
  } catch (error) {
    throw new Error(`Cannot hold the server to ${limitMillicores}m of CPU in ${group}: ${(error as Error).message}`);
  }
  return {
    release: () => {
      try {
        writeFileSync(path.join(parent, 'cgroup.procs'), String(pid));
      } catch {
        // The process has exited: the group is empty already.
      }
      rmdirSync(group);
    },
  };
}

/** The CPU time a process has used, in milliseconds (utime + stime from /proc). */
export function cpuTimeMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // After the command: state is field 3, utime field 14 and stime field 15 (1-based, in clock ticks).
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / 100;
}

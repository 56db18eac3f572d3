"""The controllers around the scheduler (pkg/controller, kubelet), one module each."""

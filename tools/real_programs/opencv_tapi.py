# OpenCV's transparent API (cv2.UMat): common image operations, each run
# three times, printing each operation's output digests. Run by
# tools/real-programs.sh on PoCL directly and through the composite device.
# Left out: Canny and deshake-like feature searches, whose kernels gather
# with global atomics and so differ from run to run on PoCL pthread itself.
import cv2, numpy as np, hashlib, sys
cv2.ocl.setUseOpenCL(True)
assert cv2.ocl.haveOpenCL() and cv2.ocl.useOpenCL()
d = cv2.ocl.Device_getDefault()
print("device:", d.name(), file=sys.stderr)
rng = np.random.default_rng(7)
img = rng.integers(0, 256, (480, 640, 3), dtype=np.uint8)
f = rng.random((480, 640), dtype=np.float32)
u = cv2.UMat(img); uf = cv2.UMat(f)
ops = {
  "add": lambda: cv2.add(u, u),
  "gray": lambda: cv2.cvtColor(u, cv2.COLOR_BGR2GRAY),
  "gauss": lambda: cv2.GaussianBlur(u, (5, 5), 1.5),
  "resize": lambda: cv2.resize(u, (320, 240)),
  "box": lambda: cv2.blur(u, (3, 3)),
  "sobel": lambda: cv2.Sobel(uf, cv2.CV_32F, 1, 0),
  "mul": lambda: cv2.multiply(uf, uf),
  "threshold": lambda: cv2.threshold(uf, 0.5, 1.0, cv2.THRESH_BINARY)[1],
  "flip": lambda: cv2.flip(u, 0),
  "transpose": lambda: cv2.transpose(uf),
  "sum": lambda: np.array(cv2.sumElems(uf)),
}
# Three rounds: a launch made while its program's analysis is still
# running runs whole; the later ones may split.
for name, op in ops.items():
  digests = set()
  for _ in range(3):
    r = op()
    a = r.get() if isinstance(r, cv2.UMat) else r
    digests.add(hashlib.md5(np.ascontiguousarray(a).tobytes()).hexdigest())
  print(name, *sorted(digests))
